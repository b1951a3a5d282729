/* capture_phase.c - how long each of capture's own steps took.
 *
 * Issue 25 asks that capture's work beside the program cost little; to
 * know where it goes, each step after the program (and the program
 * itself) is timed from the end of the step before.  The seconds go into
 * the manifest's capture.phase_seconds (the steps up to writing the
 * bundle; later ones cannot be in the manifest they finish) and, when the
 * environment has TKVIEW_CAPTURE_TIMES set, on stderr as each ends.
 */
#include "capture.h"

void cap_phase_start(cap_capture *c)
{
    c->phase_t0 = g_get_monotonic_time();
}

void cap_phase_done(cap_capture *c, const char *name)
{
    gint64 now = g_get_monotonic_time();
    double s = c->phase_t0 ? (double)(now - c->phase_t0) / 1e6 : 0.0;
    c->phase_t0 = now;
    if (c->info) {
        JsonObject *o = json_object_has_member(c->info, "phase_seconds")
                            ? json_object_get_object_member(c->info, "phase_seconds")
                            : NULL;
        if (!o) {
            o = json_object_new();
            json_object_set_object_member(c->info, "phase_seconds", o);
        }
        json_object_set_double_member(o, name, (double)(gint64)(s * 1000 + 0.5) / 1000);
    }
    const char *env = g_getenv("TKVIEW_CAPTURE_TIMES");
    if (env && *env && *env != '0')
        fprintf(stderr, "tkview: time %-14s %8.3f s\n", name, s);
}
