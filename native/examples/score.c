/*
 * The C API of clefeval in use (docs/c-api.md): scores a flowchart pair at
 * every level, the same pair at one level with the max denominator, and MOL
 * pairs, then shows how a failure reads.
 *
 *   score                                   the built-in pairs below
 *   score GOLD.txt RUN.txt [GOLD.mol RUN.mol]...   pairs read from files
 *
 * With CLEFEVAL_WORKER=/path/to/clefeval the structures are converted in
 * worker processes of that binary (crash-isolated).
 *
 * Build (from the repository root, after cargo build --release -p clefeval-native):
 *   cc native/examples/score.c -I native/include -L target/release -lclefeval \
 *      -Wl,-rpath,"$PWD/target/release" -o score
 * or statically:
 *   cc native/examples/score.c -I native/include target/release/libclefeval.a \
 *      -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o score
 */
#include <stdio.h>
#include <stdlib.h>

#include "clefeval.h"
#include "samples.h"

static const char *OUTCOMES[] = {"match",      "stereo",  "formula", "wrong",
                                 "unreadable", "missing", "manual"};

/* The whole file at `path`, NUL-terminated (exits on failure). */
static char *slurp(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        perror(path);
        exit(2);
    }
    size_t size = 0, capacity = 4096;
    char *text = malloc(capacity);
    size_t got;
    while (text != NULL && (got = fread(text + size, 1, capacity - size - 1, file)) > 0) {
        size += got;
        if (capacity - size < 2) {
            capacity *= 2;
            text = realloc(text, capacity);
        }
    }
    fclose(file);
    if (text == NULL) {
        fputs("out of memory\n", stderr);
        exit(2);
    }
    text[size] = '\0';
    return text;
}

/* Prints a failure: its status, the thread's last error and its line. */
static void print_failure(const char *what, ClefevalStatus status) {
    printf("%s: %s (line %zu): %s\n", what, clefeval_status_name(status),
           clefeval_last_error_line(), clefeval_last_error());
}

static void print_level(const char *name, const ClefevalLevelScore *level) {
    if (!level->scored)
        return;
    printf("%s: mcs=%zu distance=%.17g exact=%d", name, level->mcs, level->distance,
           level->exact);
    if (!level->exact)
        printf(" mcs_upper=%zu distance_lower=%.17g", level->mcs_upper, level->distance_lower);
    printf("\n");
}

static int score_flowcharts(const char *gold, const char *run) {
    ClefevalFlowchartScore score;
    ClefevalStatus status = clefeval_flowchart_score(gold, run, NULL, &score);
    if (status != CLEFEVAL_STATUS_OK) {
        print_failure("flowchart", status);
        return 1;
    }
    printf("sizes: gold=%zu run=%zu\n", score.gold_size, score.run_size);
    print_level("basic", &score.basic);
    print_level("intermediate", &score.intermediate);
    print_level("complete", &score.complete);
    printf("labels: best=%.17g mean=%.17g mappings=%llu best_mappings=%llu truncated=%d\n",
           score.complete.label_cost_best, score.complete.label_cost_mean,
           (unsigned long long)score.complete.mappings,
           (unsigned long long)score.complete.best_mappings, score.complete.truncated);
    printf("histogram:");
    for (int bin = 0; bin < 10; bin++)
        printf(" %llu", (unsigned long long)score.complete.histogram[bin]);
    printf("\nmapping:");
    for (size_t i = 0; i < score.mapping_len; i++)
        printf(" %lld:%lld", (long long)score.mapping[i].gold, (long long)score.mapping[i].run);
    printf("\nwarnings: %s\n", score.warnings ? score.warnings : "none");
    clefeval_flowchart_score_free(&score);

    /* One level, the max denominator. */
    ClefevalFlowchartOptions options = clefeval_flowchart_options_default();
    options.levels = CLEFEVAL_LEVEL_INTERMEDIATE;
    options.denominator = CLEFEVAL_DENOMINATOR_MAX;
    status = clefeval_flowchart_score(gold, run, &options, &score);
    if (status != CLEFEVAL_STATUS_OK) {
        print_failure("flowchart", status);
        return 1;
    }
    print_level("intermediate/max", &score.intermediate);
    clefeval_flowchart_score_free(&score);
    return 0;
}

static int score_structures(const char *gold, const char *run) {
    /* In worker processes of the clefeval binary when CLEFEVAL_WORKER names
     * it (crash-isolated), else in this process. */
    const char *worker = getenv("CLEFEVAL_WORKER");
    ClefevalRecognition result;
    ClefevalStatus status =
        worker ? clefeval_recognition_outcome_isolated(gold, run, worker, 0.0, &result)
               : clefeval_recognition_outcome(gold, run, &result);
    if (status != CLEFEVAL_STATUS_OK) {
        print_failure("recognition", status);
        return 1;
    }
    printf("recognition: %s\n  gold %s\n  run  %s\n", OUTCOMES[result.outcome],
           result.gold_inchi ? result.gold_inchi : "(none)",
           result.run_inchi ? result.run_inchi : "(none)");
    if (result.reason)
        printf("  reason %s\n", result.reason);
    clefeval_recognition_free(&result);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 1 && (argc < 3 || argc % 2 == 0)) {
        fprintf(stderr, "usage: %s [GOLD.txt RUN.txt [GOLD.mol RUN.mol]...]\n", argv[0]);
        return 2;
    }
    printf("clefeval %s\n", clefeval_version());
    int failed = 0;
    if (argc == 1) {
        failed |= score_flowcharts(GOLD, RUN);
        failed |= score_structures(ETHANOL, ETHANOL_REVERSED);
        failed |= score_structures(ETHANOL, METHANOL);
    } else {
        char *gold = slurp(argv[1]), *run = slurp(argv[2]);
        failed |= score_flowcharts(gold, run);
        free(gold);
        free(run);
        for (int i = 3; i + 1 < argc; i += 2) {
            gold = slurp(argv[i]);
            run = slurp(argv[i + 1]);
            failed |= score_structures(gold, run);
            free(gold);
            free(run);
        }
    }

    /* Failures are statuses with a message, never crashes. */
    ClefevalFlowchartScore score;
    ClefevalStatus status =
        clefeval_flowchart_score(GOLD, "NO 1 oval \"A\"\nNO 1 oval \"B\"\n", NULL, &score);
    print_failure("duplicate id", status);
    status = clefeval_flowchart_score(NULL, RUN, NULL, &score);
    print_failure("null text", status);
    status = clefeval_flowchart_score(GOLD, "NO 1 oval \"caf\xe9\"\n", NULL, &score);
    print_failure("latin-1 text", status);
    return failed;
}
