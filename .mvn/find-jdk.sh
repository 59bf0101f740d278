# Sourced by ./mvnw and .ci/run (POSIX sh). Worldflow builds with JDK 21 or newer: when JAVA_HOME is
# unset or older, use the newest JDK >= 21 found on the PATH or in the usual install folders.
worldflow_jdk_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}
worldflow_find_jdk() {
  if [ -n "${JAVA_HOME-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    v=$(worldflow_jdk_major "$JAVA_HOME")
    [ -n "$v" ] && [ "$v" -ge 21 ] && return 0
  fi
  best="" best_v=0
  candidates=""
  case $- in *f*) noglob=1 ;; *) noglob="" ;; esac
  set +f
  if command -v javac >/dev/null 2>&1; then
    candidates=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
  fi
  for d in $candidates /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/lib/jvm/*; do
    [ -x "$d/bin/javac" ] || continue
    v=$(worldflow_jdk_major "$d")
    if [ -n "$v" ] && [ "$v" -ge 21 ] && [ "$v" -gt "$best_v" ]; then
      best="$d" best_v="$v"
    fi
  done
  [ -z "$noglob" ] || set -f
  if [ -n "$best" ]; then
    JAVA_HOME="$best"
    export JAVA_HOME
    return 0
  fi
  echo "Worldflow needs a JDK 21 or newer to build, and none was found (JAVA_HOME='${JAVA_HOME-}'," >&2
  echo "PATH java: $(java -version 2>&1 | head -n 1), /usr/lib/jvm: $(ls /usr/lib/jvm 2>/dev/null | tr '\n' ' '))." >&2
  echo "Install one (e.g. Temurin 21+) and set JAVA_HOME to it." >&2
  return 1
}
