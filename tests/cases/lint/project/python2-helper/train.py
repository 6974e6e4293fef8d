import deepspeed

print "training"
