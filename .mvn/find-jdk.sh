# Sourced by ./mvnw and .ci/run (POSIX sh). Worldflow builds with JDK 21 or newer: when JAVA_HOME is
# unset or older, use the newest JDK >= 21 found on the PATH or in the usual install folders; its feature
# release is left in WORLDFLOW_JDK_MAJOR.
worldflow_jdk_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}
worldflow_find_jdk() {
  if [ -n "${JAVA_HOME-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    v=$(worldflow_jdk_major "$JAVA_HOME")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then
      WORLDFLOW_JDK_MAJOR="$v"
      return 0
    fi
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
    WORLDFLOW_JDK_MAJOR="$best_v"
    return 0
  fi
  echo "Worldflow needs a JDK 21 or newer to build, and none was found (JAVA_HOME='${JAVA_HOME-}'," >&2
  echo "PATH java: $(java -version 2>&1 | head -n 1), /usr/lib/jvm: $(ls /usr/lib/jvm 2>/dev/null | tr '\n' ' '))." >&2
  echo "Install one (e.g. Temurin 21+) and set JAVA_HOME to it." >&2
  return 1
}
# The flags a JVM of this feature release needs so that the JDK does not warn at every start (the parent pom's
# worldflow.jvm.flags, which the build gives the JVMs it starts; LaunchFlagsTest checks they agree): native access
# for SQLite's library, and sun.misc.Unsafe memory access for ElasticMQ's Pekko, an option only JDK 23+ knows.
worldflow_jvm_flags() {
  if [ "$1" -ge 23 ]; then
    echo "--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
  else
    echo "--enable-native-access=ALL-UNNAMED"
  fi
}
