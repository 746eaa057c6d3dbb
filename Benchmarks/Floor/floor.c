/* The physical floor of a conversion, to measure settings against: read the input whole,
 * then put out bytes already known to be the answer (no parsing, no encoding), either to
 * standard output or durably to a file (a temporary file, fsync, rename, fsync of the
 * folder: what any safe writer must do). Built static, so start-up is as small as it gets.
 *
 *   floor IN [RESULT [DEST]]
 *
 * With IN alone it only reads. RESULT's bytes are read before the timer matters too,
 * as a converter must hold its output. Exit status 0, or 1 with a message. */
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *slurp(const char *path, size_t *size) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(path); exit(1); }
    char *buffer = malloc(st.st_size + 1);
    size_t done = 0;
    while (done < (size_t)st.st_size) {
        ssize_t n = read(fd, buffer + done, st.st_size - done);
        if (n <= 0) { perror(path); exit(1); }
        done += n;
    }
    close(fd);
    *size = done;
    return buffer;
}

static void put(int fd, const char *bytes, size_t size) {
    while (size > 0) {
        ssize_t n = write(fd, bytes, size);
        if (n <= 0) { perror("write"); exit(1); }
        bytes += n;
        size -= n;
    }
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: floor IN [RESULT [DEST]]\n"); return 1; }
    size_t in_size, out_size;
    free(slurp(argv[1], &in_size));
    if (argc == 2) return 0;
    char *out = slurp(argv[2], &out_size);
    if (argc == 3) { put(1, out, out_size); return 0; }
    char temporary[4096], folder[4096];
    snprintf(temporary, sizeof temporary, "%s.floor-tmp", argv[3]);
    snprintf(folder, sizeof folder, "%s", argv[3]);
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) { perror(temporary); return 1; }
    put(fd, out, out_size);
    if (fsync(fd) != 0 || close(fd) != 0 || rename(temporary, argv[3]) != 0) { perror(argv[3]); return 1; }
    int dir = open(dirname(folder), O_RDONLY | O_DIRECTORY);
    if (dir < 0 || fsync(dir) != 0) { perror("folder"); return 1; }
    close(dir);
    return 0;
}
