#!/usr/bin/env bash
# bench/gpu-bundle.sh - pack what a bare GPU machine with no package registry
# needs to run the acceptance script (doc/contributing/testing.md#gpu-acceptance): the runner's
# shared libraries and gnuplot with its libraries and one font, copied from
# this machine into .deps.tar.xz (ignored by git; carry it with the checkout,
# the script unpacks it into build/deps/).
# glibc's own libraries stay behind: the GPU machine has its own.
set -eu
cd "$(dirname "$0")/.."
make -s all >/dev/null
rm -rf .deps && mkdir -p .deps/lib .deps/bin .deps/fonts
skip='^(libc|libm|libmvec|libpthread|libdl|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s|libresolv|libutil)\.so'
copy_libs() {
  ldd "$1" | awk '/=> \//{print $3}' | while read -r so; do
    base=$(basename "$so")
    echo "$base" | grep -Eq "$skip" && continue
    [ -e ".deps/lib/$base" ] || cp -L "$so" ".deps/lib/$base"
  done
}
copy_libs bin/runner
if command -v gnuplot >/dev/null; then
  cp -L "$(command -v gnuplot)" .deps/bin/gnuplot
  copy_libs "$(command -v gnuplot)"
  for f in DejaVuSans.ttf DejaVuSans-Bold.ttf; do
    p=$(fc-list 2>/dev/null | awk -F: -v f="$f" '$1 ~ f"$" {print $1; exit}')
    [ -n "$p" ] && cp -L "$p" .deps/fonts/
  done
  cat > .deps/fonts.conf <<CONF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir prefix="relative">fonts</dir><cachedir>/tmp/runner-fontcache</cachedir></fontconfig>
CONF
fi
tar -C .deps -cJf .deps.tar.xz . && rm -rf .deps
du -sh .deps.tar.xz | awk '{print "bench/gpu-bundle.sh: wrote .deps.tar.xz, " $1}'
