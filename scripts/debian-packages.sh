# Sourced by build.sh and test.sh: install_missing_debian_packages PACKAGE... installs with apt-get
# (through sudo when not root) those of the Debian packages that are not installed yet.
install_missing_debian_packages() {
  local missing=() p sudo=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "spmma: installing the Debian packages ${missing[*]}"
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}
