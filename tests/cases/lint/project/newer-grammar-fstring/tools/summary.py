import json
import sys

rows = json.load(open(sys.argv[1]))
for row in rows:
    print(f"{row["name"]}: {sum(r["score"] for r in row["runs"]) /
                           max(1, len(row["runs"])):.3f}")
print(f"total: {len(rows)} rows from {
    sys.argv[1]}")
