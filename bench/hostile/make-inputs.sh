#!/bin/sh
# Writes hostile task and config files into DIR (default ./hostile-inputs) for trying the input
# checks by hand: `hermes-delegate run DIR/latin1.json` and so on. Each must end in exit 2 with a
# message naming the file, the problem and the fix (config-osc.yaml: `config --show` prints it safe).
set -e
dir=${1:-hostile-inputs}
mkdir -p "$dir"
printf '[{"goal":"R\351sum\351 du caf\351"}]\n' > "$dir/latin1.json"                           # Latin-1 é
printf '\377\376[\000{\000"\000g\000o\000a\000l\000"\000:\000"\000x\000"\000}\000]\000' > "$dir/utf16.json"  # UTF-16 LE with BOM
python3 -c 'import json; print(json.dumps([{"goal": "x", "name": "漢\u0301" * 25000}]))' > "$dir/long-name.json"
python3 -c 'import json; print(json.dumps([{"goal": "x", "timeout": 2592000, "context": "[fake:duration=1]"}]))' > "$dir/thirty-days.json"
python3 -c 'import json; print(json.dumps([{"goal": "\u001b]52;c;cHduZWQ=\u0007" + "x" * 30 + "\u001b]0;title\u0007 rest", "option": "nope"}]))' > "$dir/osc-goal-strict.json"
cat > "$dir/config-osc.yaml" <<'YAML'
delegation:
  backend: model_map
  backends:
    model_map:
      options:
        - name: fast
          description: "clipboard \e]52;c;cHduZWQ=\a title \e]0;PWNED\a mouse \e[?1000h"
          provider: openrouter
          model: "m\e[?1049h"
      default: fast
YAML
echo "wrote $dir"
