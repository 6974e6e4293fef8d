# an old evaluation demo kept for reference
scores = [0.5, 0.75]
print "mean:", sum(scores) / len(scores)
