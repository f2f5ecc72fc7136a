# Sourced by build.sh and test.sh: install_missing_debian_packages [APT_OPTION...] PACKAGE... installs
# with apt-get (through sudo when not root) those of the Debian packages that are not installed yet;
# leading arguments that start with '-' are passed to apt-get install (e.g. --no-install-recommends).
install_missing_debian_packages() {
  local missing=() options=() p sudo=""
  while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do
    options+=("$1")
    shift
  done
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "spmma: installing the Debian packages ${missing[*]}"
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${options[@]}" "${missing[@]}"
}
