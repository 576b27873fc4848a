# bench/lib.sh - what the bench scripts share.  Source it.

# csv_cols FILE COLUMN...: the named columns of every row of a CSV file,
# space-separated, found by header name (quoted fields may hold commas).
csv_cols() {
    file=$1
    shift
    awk -v cols="$*" '
    function parse(line, out,    n, i, c, f, q) {
        n = 0; f = ""; q = 0
        sub(/\r$/, "", line)
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (q) {
                if (c != "\"") f = f c
                else if (substr(line, i + 1, 1) == "\"") { f = f c; i++ }
                else q = 0
            } else if (c == "\"") q = 1
            else if (c == ",") { out[++n] = f; f = "" }
            else f = f c
        }
        out[++n] = f
        return n
    }
    NR == 1 {
        n = parse($0, head)
        for (i = 1; i <= n; i++) idx[head[i]] = i
        m = split(cols, want, " ")
        for (j = 1; j <= m; j++)
            if (!(want[j] in idx)) {
                printf "%s: no column %s\n", FILENAME, want[j] > "/dev/stderr"
                exit 2
            }
        next
    }
    {
        parse($0, v)
        row = ""
        for (j = 1; j <= m; j++) {
            cell = v[idx[want[j]]]
            row = row (j > 1 ? " " : "") (cell == "" ? "-" : cell)
        }
        print row
    }' "$file"
}
