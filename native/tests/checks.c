/*
 * The C API's contract at its edges, one printed line per check for
 * tests/native.rs to compare: options out of range, a search cut by its
 * work budget, warnings, strict reading, a level alone, texts of the other
 * flowchart formats (Mermaid, DOT, draw.io), MOL texts without
 * an InChI, null pointers, freeing twice, the last error's lifetime, and
 * calls from several threads at once.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../examples/samples.h"
#include "clefeval.h"

/* `what: status name (line N): message`, or `what: ok`. */
static void report(const char *what, ClefevalStatus status) {
    if (status == CLEFEVAL_STATUS_OK) {
        printf("%s: ok\n", what);
        return;
    }
    const char *message = clefeval_last_error();
    printf("%s: %s (line %zu): %s\n", what, clefeval_status_name(status),
           clefeval_last_error_line(), message ? message : "(no message)");
}

static ClefevalStatus score_with(ClefevalFlowchartOptions options, ClefevalFlowchartScore *out) {
    return clefeval_flowchart_score(GOLD, RUN, &options, out);
}

/* A pair large enough that one unit of work cannot prove it: two cycles. */
static void budget_cut(void) {
    char gold[4096], run[4096];
    size_t g = 0, r = 0;
    for (int i = 1; i <= 12; i++) {
        g += snprintf(gold + g, sizeof gold - g, "NO %d rectangle \"step %d\"\n", i, i);
        r += snprintf(run + r, sizeof run - r, "NO %d rectangle \"step %d\"\n", i, i);
    }
    for (int i = 1; i <= 12; i++) {
        g += snprintf(gold + g, sizeof gold - g, "DE %d %d plain\n", i, i % 12 + 1);
        r += snprintf(run + r, sizeof run - r, "DE %d %d plain\n", i, (i * 5) % 12 + 1);
    }
    ClefevalFlowchartOptions options = clefeval_flowchart_options_default();
    options.levels = CLEFEVAL_LEVEL_INTERMEDIATE;
    options.budget = 1;
    ClefevalFlowchartScore score;
    ClefevalStatus status = clefeval_flowchart_score(gold, run, &options, &score);
    report("budget 1", status);
    ClefevalLevelScore cut = score.intermediate;
    printf("budget 1: exact=%d cut_by=%d lower<distance=%d\n", cut.exact, (int)cut.cut_by,
           cut.distance_lower < cut.distance);
    clefeval_flowchart_score_free(&score);
    options.budget = 0;
    status = clefeval_flowchart_score(gold, run, &options, &score);
    report("no budget", status);
    ClefevalLevelScore exact = score.intermediate;
    printf("no budget: exact=%d cut_by=%d within the cut's interval=%d\n", exact.exact,
           (int)exact.cut_by, cut.mcs <= exact.mcs && exact.mcs <= cut.mcs_upper);
    clefeval_flowchart_score_free(&score);
}

static void options_out_of_range(void) {
    ClefevalFlowchartScore score;
    ClefevalFlowchartOptions options = clefeval_flowchart_options_default();
    printf("defaults: levels=%u denominator=%u max_mappings=%llu budget=%llu time=%g\n",
           options.levels, options.denominator, (unsigned long long)options.max_mappings,
           (unsigned long long)options.budget, options.time_limit_seconds);
    options.levels = 0;
    report("levels 0", score_with(options, &score));
    options.levels = 8;
    report("levels 8", score_with(options, &score));
    options = clefeval_flowchart_options_default();
    options.denominator = 9;
    report("denominator 9", score_with(options, &score));
    options = clefeval_flowchart_options_default();
    options.time_limit_seconds = -1;
    report("time -1", score_with(options, &score));
    options.time_limit_seconds = NAN;
    report("time nan", score_with(options, &score));
    printf("after failure: basic.scored=%d mapping=%s warnings=%s\n", score.basic.scored,
           score.mapping ? "set" : "NULL", score.warnings ? "set" : "NULL");
    clefeval_flowchart_score_free(&score);
}

static void levels_and_reading(void) {
    ClefevalFlowchartScore score;
    ClefevalFlowchartOptions options = clefeval_flowchart_options_default();
    options.levels = CLEFEVAL_LEVEL_BASIC | CLEFEVAL_LEVEL_COMPLETE;
    report("basic and complete", score_with(options, &score));
    printf("basic and complete: scored=%d%d%d mapping_len=%zu\n", score.basic.scored,
           score.intermediate.scored, score.complete.scored, score.mapping_len);
    clefeval_flowchart_score_free(&score);
    options.levels = CLEFEVAL_LEVEL_BASIC;
    report("basic", score_with(options, &score));
    printf("basic: scored=%d%d%d mapping=%s\n", score.basic.scored, score.intermediate.scored,
           score.complete.scored, score.mapping ? "set" : "NULL");
    clefeval_flowchart_score_free(&score);
    /* The same as the earlier call: freeing twice is harmless. */
    clefeval_flowchart_score_free(&score);
    clefeval_flowchart_score_free(NULL);

    const char *declared = "MT NO 5\nNO 1 oval \"START\"\nXX what\nNO 2 oval \"END\"\n";
    report("warnings", clefeval_flowchart_score(GOLD, declared, NULL, &score));
    printf("warnings: %s\n", score.warnings ? score.warnings : "none");
    clefeval_flowchart_score_free(&score);
    options = clefeval_flowchart_options_default();
    options.strict = true;
    report("strict", clefeval_flowchart_score(GOLD, declared, &options, &score));

    report("null out", clefeval_flowchart_score(GOLD, RUN, NULL, NULL));
    report("null run", clefeval_flowchart_score(GOLD, NULL, NULL, &score));
    report("empty texts", clefeval_flowchart_score("", "", NULL, &score));
    printf("empty texts: sizes=%zu,%zu distance=%g\n", score.gold_size, score.run_size,
           score.complete.distance);
    clefeval_flowchart_score_free(&score);
    printf("last error after success: %s\n", clefeval_last_error() ? "set" : "NULL");
    printf("status 99: %s\n", clefeval_status_name(99));
}

/* Texts of every flowchart format, each read in the format it claims: a
 * Mermaid answer against a DOT graph and a draw.io page of one chart. */
static void formats(void) {
    const char *mermaid = "Here it is:\n```mermaid\nflowchart TD\n"
                          "  A([START]) --> B[Check stock]\n  B -->|no| A\n```\n";
    const char *dot = "digraph { a [shape=oval, label=\"START\"]; b [shape=box, "
                      "label=\"Check stock\"]; a -> b; b -> a [label=no] }";
    const char *drawio =
        "<mxGraphModel><root><mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/>"
        "<mxCell id=\"a\" value=\"START\" style=\"ellipse;\" vertex=\"1\" parent=\"1\">"
        "<mxGeometry width=\"120\" height=\"60\" as=\"geometry\"/></mxCell>"
        "<mxCell id=\"b\" value=\"Check stock\" vertex=\"1\" parent=\"1\"/>"
        "<mxCell id=\"e\" edge=\"1\" parent=\"1\" source=\"a\" target=\"b\"/>"
        "<mxCell id=\"f\" value=\"no\" edge=\"1\" parent=\"1\" source=\"b\" target=\"a\"/>"
        "</root></mxGraphModel>";
    ClefevalFlowchartScore score;
    report("mermaid and dot", clefeval_flowchart_score(mermaid, dot, NULL, &score));
    printf("mermaid and dot: sizes=%zu,%zu complete distance=%g warnings=%s\n", score.gold_size,
           score.run_size, score.complete.distance, score.warnings ? score.warnings : "NULL");
    clefeval_flowchart_score_free(&score);
    report("dot and draw.io", clefeval_flowchart_score(dot, drawio, NULL, &score));
    printf("dot and draw.io: complete distance=%g\n", score.complete.distance);
    clefeval_flowchart_score_free(&score);
}

static void structures(void) {
    ClefevalRecognition result;
    const char *garbage = "not a MOL file\n";
    report("unreadable", clefeval_recognition_outcome(ETHANOL, garbage, &result));
    printf("unreadable: outcome=%d run_inchi=%s reason=%s\n", (int)result.outcome,
           result.run_inchi ? result.run_inchi : "NULL", result.reason ? result.reason : "NULL");
    clefeval_recognition_free(&result);
    clefeval_recognition_free(&result);
    report("manual", clefeval_recognition_outcome(garbage, ETHANOL, &result));
    printf("manual: outcome=%d gold_inchi=%s reason=%s\n", (int)result.outcome,
           result.gold_inchi ? result.gold_inchi : "NULL", result.reason ? result.reason : "NULL");
    clefeval_recognition_free(&result);
    report("null gold", clefeval_recognition_outcome(NULL, ETHANOL, &result));
    printf("null gold: outcome=%d gold_inchi=%s\n", (int)result.outcome,
           result.gold_inchi ? "set" : "NULL");
    report("null out", clefeval_recognition_outcome(ETHANOL, ETHANOL, NULL));
    report("null program",
           clefeval_recognition_outcome_isolated(ETHANOL, ETHANOL, NULL, 0.0, &result));
    report("timeout -1",
           clefeval_recognition_outcome_isolated(ETHANOL, ETHANOL, "clefeval", -1.0, &result));
}

/* The generic entry (run from the project's root, so the goldens' paths
   hold): a flowchart file pair at the basic level, whose distance the
   golden goldens/flowchart/expected/recognizer-a.json gives, then a bad
   setting, an unknown task, an unknown field and a missing path. */
static void generic(void) {
    char *result = NULL;
    const char *request =
        "{\"gold\": [\"goldens/flowchart/gold/FC-0001.txt\"],"
        " \"runs\": [{\"name\": \"a\", \"path\": \"goldens/flowchart/runs/recognizer-a/FC-0001.txt\"}],"
        " \"settings\": {\"levels\": [\"basic\"]}, \"threads\": 1}";
    report("evaluate", clefeval_evaluate("flowchart", request, &result));
    printf("evaluate: task=%s run=%s basic=%s\n",
           result && strstr(result, "\"task\": \"flowchart\"") ? "flowchart" : "?",
           result && strstr(result, "\"run\": \"a\"") ? "a" : "?",
           result && strstr(result, "\"mcs\": 35,\n              \"distance\": 0.10256410256410253")
               ? "35, 0.10256410256410253"
               : "?");
    clefeval_string_free(&result);
    clefeval_string_free(&result);
    clefeval_string_free(NULL);
    report("bad setting",
           clefeval_evaluate("flowchart", "{\"settings\": {\"time_limit\": -1}}", &result));
    printf("after failure: result=%s\n", result ? "set" : "NULL");
    report("unknown task", clefeval_evaluate("flowcharts", "{}", &result));
    report("unknown field", clefeval_evaluate("passage", "{\"qrel\": \"q.txt\"}", &result));
    report("missing path",
           clefeval_evaluate("segmentation", "{\"gold\": [\"no-such\"], \"runs\": [\"r\"]}", &result));
    report("null result", clefeval_evaluate("flowchart", "{}", NULL));
}

/* Each thread scores the pair and classifies two MOL pairs, many times. */
enum { THREADS = 4, ROUNDS = 25 };

static void *worker(void *arg) {
    int *agreed = arg;
    *agreed = 0;
    for (int i = 0; i < ROUNDS; i++) {
        ClefevalFlowchartScore score;
        ClefevalRecognition result;
        if (clefeval_flowchart_score(GOLD, RUN, NULL, &score) != CLEFEVAL_STATUS_OK)
            return NULL;
        int same = score.intermediate.mcs == 2 && score.complete.mappings == 2;
        clefeval_flowchart_score_free(&score);
        if (clefeval_recognition_outcome(ETHANOL, ETHANOL_REVERSED, &result) !=
            CLEFEVAL_STATUS_OK)
            return NULL;
        same = same && result.outcome == CLEFEVAL_OUTCOME_MATCH &&
               strcmp(result.run_inchi, "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3") == 0;
        clefeval_recognition_free(&result);
        if (clefeval_recognition_outcome(METHANOL, ETHANOL, &result) != CLEFEVAL_STATUS_OK)
            return NULL;
        same = same && result.outcome == CLEFEVAL_OUTCOME_WRONG &&
               strcmp(result.gold_inchi, "InChI=1S/CH4O/c1-2/h2H,1H3") == 0;
        clefeval_recognition_free(&result);
        *agreed += same;
    }
    return NULL;
}

static void threads(void) {
    pthread_t ids[THREADS];
    int agreed[THREADS];
    for (int t = 0; t < THREADS; t++)
        pthread_create(&ids[t], NULL, worker, &agreed[t]);
    int total = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(ids[t], NULL);
        total += agreed[t];
    }
    printf("threads: %d of %d calls agreed\n", total, THREADS * ROUNDS);
}

int main(void) {
    options_out_of_range();
    budget_cut();
    levels_and_reading();
    formats();
    structures();
    generic();
    threads();
    return 0;
}
