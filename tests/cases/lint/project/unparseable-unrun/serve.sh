#!/bin/bash
python tools/serve.py --port 7860
