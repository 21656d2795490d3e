# Sourced, not run: `. deploy/local/fill-env.sh .local/env` exports each NAME=value line of the file
# whose NAME the environment leaves unset. What the operator exported wins over the file that
# `make stack` writes (the settings give the environment the same priority, hub/settings/base.py).
# The file's values are shell words, as when the file is sourced whole.
while IFS= read -r __hub_line || [ -n "$__hub_line" ]; do
  case "$__hub_line" in
    [A-Za-z_]*=*)
      __hub_name="${__hub_line%%=*}"
      # Only a plain variable name: a line such as `a b=c` is not an assignment.
      case "$__hub_name" in *[!A-Za-z0-9_]*) continue ;; esac
      [ -n "${!__hub_name+set}" ] || eval "export $__hub_line"
      ;;
  esac
done < "$1"
unset __hub_line __hub_name
