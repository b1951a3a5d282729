/* tkv_bench.h - `tkview-viewer --bench PATH`: the viewer's own timings on a
 * real window.
 *
 * Loads PATH in a window (its own process, not handed to a running one),
 * shows the kernel with the most stage lines (or --kernel K) and measures,
 * one step per frame:
 *   - first view: from the moment the loaded data reaches the main thread to
 *     the end of the first frame that shows it (target <= 300 ms);
 *   - select a source line, for every source line of the kernel's own file
 *     that the shown stage has code for, with TTGIR alone and with LLVM IR
 *     beside SASS; select an IR line, for the stage's bound lines; switch
 *     stage.  Each as the action handler's time plus the next frame, from
 *     its start to the end of its paint (layout, snapshot, render; target
 *     <= 16 ms), and as the wall time to that frame's end (which also waits
 *     for the frame clock).
 * Prints a table (or JSON with --json).  Exit status: 0 when the targets are
 * met (first view <= 300 ms, 95th percentile of each selection <= 16 ms), 1
 * when not, 3 when PATH cannot be loaded, 2 without a display.
 */
#ifndef TKV_BENCH_H
#define TKV_BENCH_H

/* ARGV: the program's arguments ("--bench" among them). */
int tkv_bench_main(int argc, char **argv);

#endif
