//! The quantile plot SV-COMP uses: for each run, the CPU times of its
//! correct results sorted ascending, the n-th fastest at x = n, on a
//! logarithmic time axis. A run lies further right the more it solves and
//! lower the faster it solves it.

use crate::report::Row;
use crate::score::Status;
use plotters::prelude::*;

/// Why the plot cannot be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the quantile plot: {0}")]
pub struct PlotError(String);

/// Colours of the runs, in order.
const COLOURS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
];

/// The sorted CPU times of the correct results of a run.
pub fn quantiles(rows: &[Row]) -> Vec<f64> {
    let mut t: Vec<f64> = rows
        .iter()
        .filter(|r| r.status == Status::Correct)
        .map(|r| r.cpu_seconds)
        .collect();
    t.sort_by(f64::total_cmp);
    t
}

/// Draws the quantile plot of the named runs as SVG text.
pub fn quantile_svg(runs: &[(&str, &[Row])]) -> Result<String, PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError(e.to_string());
    let series: Vec<(&str, Vec<f64>)> = runs.iter().map(|(n, r)| (*n, quantiles(r))).collect();
    let n_max = series
        .iter()
        .map(|(_, q)| q.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let t_max = series
        .iter()
        .flat_map(|(_, q)| q.iter().copied())
        .fold(1.0_f64, f64::max)
        * 1.5;
    let t_min = 0.01_f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Quantile plot: CPU time of correct results",
                ("sans-serif", 20),
            )
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(0..n_max + 1, (t_min..t_max).log_scale())
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("n-th fastest correct result")
            .y_desc("CPU time (s)")
            .y_label_formatter(&|v| {
                if *v >= 1.0 {
                    format!("{v:.0}")
                } else {
                    format!("{v:.2}")
                }
            })
            .draw()
            .map_err(|e| err(&e))?;
        for (i, (name, q)) in series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let points: Vec<(usize, f64)> = q
                .iter()
                .enumerate()
                .map(|(k, t)| (k + 1, t.max(t_min)))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(format!("{name} ({} correct)", q.len()))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
            chart
                .draw_series(
                    points
                        .into_iter()
                        .map(|p| Circle::new(p, 2, colour.filled())),
                )
                .map_err(|e| err(&e))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Row;

    fn row(cpu: f64, status: Status) -> Row {
        Row {
            folder: "f".into(),
            task: "t".into(),
            property: String::new(),
            expected: Some(true),
            verdict: "true".into(),
            status,
            score: 2,
            reason: String::new(),
            cpu_seconds: cpu,
            wall_seconds: cpu,
            peak_memory_mb: 1.0,
            iterations: None,
            predicates: None,
            certified: None,
            certificate_seconds: None,
            solve_seconds: None,
            certificate_reason: String::new(),
            transitions: None,
            states: None,
        }
    }

    #[test]
    fn quantiles_are_sorted_correct_times() {
        let rows = vec![
            row(3.0, Status::Correct),
            row(0.5, Status::Correct),
            row(9.0, Status::Unknown),
            row(1.0, Status::Correct),
        ];
        assert_eq!(quantiles(&rows), vec![0.5, 1.0, 3.0]);
        let svg = quantile_svg(&[("ase", &rows), ("empty", &[])]).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("ase (3 correct)"));
        assert!(svg.contains("empty (0 correct)"));
        assert!(svg.contains("n-th fastest correct result"));
    }
}
