#!/bin/sh
# A Debian package of hookshim: what `make install PREFIX=/usr` puts in a
# staging root, a DEBIAN/control whose Depends are the Debian packages
# that hold the libraries the binaries link (found with dpkg -S, at least
# the versions installed here), built with dpkg-deb.
#   scripts/make-deb.sh BUILD VERSION   -> BUILD/hookshim_VERSION_ARCH.deb
set -eu
build=$1 version=$2
top=$(cd "$(dirname "$0")/.." && pwd)
arch=$(dpkg --print-architecture)
stage=$top/$build/deb/root
rm -rf "$top/$build/deb"
make -s --no-print-directory -C "$top" BUILD="$build" install DESTDIR="$stage" PREFIX=/usr >/dev/null

# Depends: the package of every shared library either binary needs (by
# the path ldd gives, or the file it resolves to: /lib is /usr/lib here),
# and of the one hookshim loads when a request needs it (libcurl,
# engine/curl_load.h): the copy of this architecture's directory that a
# Debian package owns (a self-built one in /usr/local may come first)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || ${CC:-gcc} -print-multiarch)
dlopened=""
for f in $(/sbin/ldconfig -p | awk -v d="/$ma/" '$1 == "libcurl.so.4" && index($NF, d) { print $NF }'); do
	if dpkg -S "$f" >/dev/null 2>&1 || dpkg -S "$(readlink -f "$f")" >/dev/null 2>&1; then
		dlopened=$f
		break
	fi
done
[ -n "$dlopened" ] || { echo "make-deb: no Debian package holds libcurl.so.4 for $ma (apt-get install libcurl4)" >&2; exit 1; }
deps=""
for lib in $( (ldd "$stage/usr/bin/hookshim" "$stage/usr/lib/libhookshim.so" |
	awk '$2 == "=>" && $3 ~ /^\// { print $3 }'; echo $dlopened) | sort -u); do
	pkg=""
	for f in "$lib" "$(readlink -f "$lib")"; do
		[ -n "$pkg" ] || pkg=$(dpkg -S "$f" 2>/dev/null | head -1 | cut -d: -f1)
	done
	[ -n "$pkg" ] || continue
	ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
	case " $deps " in *" $pkg "*) continue ;; esac
	deps="$deps $pkg (>= ${ver%%-*})"
done
depends=$(echo "$deps" | sed 's/^ //; s/) /), /g')
size=$(du -sk "$stage" | cut -f1)
mkdir -p "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<C
Package: hookshim
Version: $version
Architecture: $arch
Maintainer: hookshim developers <hookshim@example.invalid>
Installed-Size: $size
Depends: $depends
Section: devel
Priority: optional
Homepage: https://example.invalid/hookshim
Description: hooks for any agent CLI, from the outside
 hookshim runs an agent CLI (or any command) with its commands and file
 writes turned into PreToolUse/PostToolUse hook calls in the hook file's
 own dialect (Claude Code settings.json and others): an LD_PRELOAD shim
 for rich decisions and a seccomp user-notification floor for static
 programs and raw system calls. A denied call fails, and the hook's
 reason reaches the model, the terminal and the log.
C
out=$top/$build/hookshim_${version}_$arch.deb
dpkg-deb --root-owner-group --build "$stage" "$out" >/dev/null
echo "$out"
