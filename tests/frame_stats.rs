//! The frames bench's arithmetic (`bob::ui::frame_stats`, built with the
//! `measure` feature): its figures read back from a child's line, the CPU
//! time read from `/proc`, and the medians over rounds.

use std::time::Duration;

use bob::ui::frame_stats::{
    Figures, mean_worst_ms, median_figures, parse_figures, per_frame_ms, stat_ticks,
};

#[test]
fn figures_are_read_back_from_the_bench_line() {
    let f = parse_figures(
        "BENCH training frames=120 secs=8.000 fps=15.00 ours_mean_ms=1.250 ours_worst_ms=3.500 main_mean_ms=20.000 main_worst_ms=31.000 process_cpu_ms=14.50 raster_cpu_ms=8.25 drawn=3",
    )
    .unwrap();
    assert_eq!(f.drawn, 3);
    assert_eq!((f.process_cpu, f.raster_cpu), (14.5, 8.25));
    assert_eq!(f.label, "training");
    assert_eq!(
        (f.fps, f.ours_mean, f.ours_worst, f.main_mean, f.main_worst),
        (15.0, 1.25, 3.5, 20.0, 31.0)
    );
    assert_eq!(parse_figures("screenshot saved"), None);
    // A thread's stat line: its name may hold spaces and brackets.
    let line = "4242 (llvmpipe (0)) S 1 2 3 4 5 6 7 8 9 10 120 34 0 0";
    assert_eq!(stat_ticks(line), Some(("llvmpipe (0)", 154)));
    assert_eq!(stat_ticks("4242 (bob) S 1 2"), None);
    let ms = |v: u64| Some(Duration::from_millis(v));
    assert_eq!(per_frame_ms(ms(1000), ms(1600), 40.0), 15.0);
    assert_eq!(per_frame_ms(None, ms(1600), 40.0), 0.0);
    assert_eq!(mean_worst_ms(&[0.001, 0.003]), (2.0, 3.0));
}

#[test]
fn rounds_give_medians_and_the_worst_of_the_worst() {
    let run = |cpu: f64, worst: f64| Figures {
        label: "walk".into(),
        process_cpu: cpu,
        raster_cpu: cpu / 10.0,
        ours_cpu_worst: worst,
        drawn: 30,
        ..Figures::default()
    };
    let m = median_figures(&[run(18.0, 1.0), run(15.0, 3.0), run(21.0, 2.0)]);
    assert_eq!((m.process_cpu, m.ours_cpu_worst, m.drawn), (18.0, 3.0, 30));
    // The rasterizer's share is taken as each run's tenth of it here.
    assert_eq!(m.raster_cpu, 1.8);
    let m = median_figures(&[run(18.0, 1.0), run(15.0, 3.0)]);
    assert_eq!(m.process_cpu, 16.5);
    assert_eq!(median_figures(&[]).process_cpu, 0.0);
}
