def export_onnx(model):
    print "exporting", model
