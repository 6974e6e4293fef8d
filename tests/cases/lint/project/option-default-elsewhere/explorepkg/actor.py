from transformers import AutoModelForSequenceClassification


def make_explorer(args):
    if args.explore == "off":
        return None
    # only with --explore thompson: the scorer sits on one GPU beside the policy
    return AutoModelForSequenceClassification.from_pretrained(args.scorer, device_map="cuda:0")
