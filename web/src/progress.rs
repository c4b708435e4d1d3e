//! `report.progress` as the page reads it, and the rows of the Progress chart: each node's window in the plan
//! made before the upgrade started (`--since`) or, without it, in the rest of the plan from this snapshot,
//! with where the node actually is. Pure: tested natively.

use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProgressV {
    pub state: String,
    /// The headline every face shows.
    pub summary: String,
    pub target: String,
    pub read_from: String,
    pub started: Option<String>,
    pub control_plane_done: bool,
    pub operators: Option<OperatorsV>,
    pub completion_percent: u32,
    pub counts: CountsV,
    pub nodes: Vec<NodeProgressV>,
    pub stuck: Vec<StuckV>,
    pub remaining_seconds: Option<u64>,
    pub expected_end: Option<String>,
    pub caveat: Option<String>,
    pub since: Option<SinceV>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct OperatorsV {
    pub total: usize,
    pub updated: usize,
    pub updating: Vec<String>,
    pub waiting: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CountsV {
    pub total: usize,
    pub done: usize,
    pub in_progress: usize,
    pub not_started: usize,
    pub left_out: usize,
    pub unknown: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NodeProgressV {
    pub node: String,
    pub pool: Option<String>,
    pub stage: String,
    pub step: Option<String>,
    pub version: Option<String>,
    pub detail: Option<String>,
    pub planned_start_seconds: Option<u64>,
    pub planned_end_seconds: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StuckV {
    pub node: String,
    pub cause: String,
    pub code: String,
    pub predicted: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SinceV {
    pub planned_seconds: u64,
    pub elapsed_seconds: Option<u64>,
    pub elapsed_from: String,
    pub planned_done: Option<usize>,
    pub actual_done: usize,
    pub behind_seconds: Option<i64>,
    pub summary: String,
}

/// One row of the Progress chart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub node: String,
    pub pool: String,
    /// `done`, `in-progress`, `not-started`, `left-out`, `unknown`; `stuck` for a stalled node.
    pub stage: String,
    pub step: Option<String>,
    /// Its planned window (seconds from the upgrade's start; with `--since`, that plan's; else the rest of
    /// the plan from this snapshot, offset by the time already run when it is known).
    pub window: Option<(u64, u64)>,
    pub detail: String,
}

/// The chart: its rows (stuck and in progress first, as the report orders them), the time axis's end and
/// where "now" is on it (`None`: not known). `steps`: this report's plan steps, (node, start, end).
pub fn rows(steps: &[(&str, u64, u64)], p: &ProgressV) -> (Vec<Row>, u64, Option<u64>) {
    let now = p.since.as_ref().and_then(|s| s.elapsed_seconds);
    let from_plan = |node: &str| {
        let mut w: Option<(u64, u64)> = None;
        for (_, start, end) in steps.iter().filter(|(n, _, _)| *n == node) {
            let (s, e) = (start + now.unwrap_or(0), end + now.unwrap_or(0));
            w = Some(w.map_or((s, e), |(a, b)| (a.min(s), b.max(e))));
        }
        w
    };
    let rows: Vec<Row> = p
        .nodes
        .iter()
        .map(|n| {
            let stuck = p.stuck.iter().find(|s| s.node == n.node);
            let window = match (n.planned_start_seconds, n.planned_end_seconds) {
                (Some(s), Some(e)) => Some((s, e)),
                _ if n.stage == "done" => None,
                _ => from_plan(&n.node),
            };
            let mut detail = n.stage.replace('-', " ");
            if let Some(step) = &n.step {
                detail.push_str(&format!(" ({step})"));
            }
            if let Some(v) = &n.version {
                detail.push_str(&format!(", runs {v}"));
            }
            if let Some(s) = stuck {
                detail.push_str(&format!("; stuck: {}{}", s.cause, if s.predicted { " (predicted)" } else { "" }));
            } else if let Some(d) = &n.detail {
                detail.push_str(&format!("; {d}"));
            }
            Row {
                node: n.node.clone(),
                pool: n.pool.clone().unwrap_or_default(),
                stage: if stuck.is_some() { "stuck".to_owned() } else { n.stage.clone() },
                step: n.step.clone(),
                window,
                detail,
            }
        })
        .collect();
    let end = rows
        .iter()
        .filter_map(|r| r.window.map(|w| w.1))
        .chain(now)
        .chain(p.since.as_ref().map(|s| s.planned_seconds))
        .chain(p.remaining_seconds.map(|x| x + now.unwrap_or(0)))
        .max()
        .unwrap_or(0);
    (rows, end, now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_take_the_earlier_plan_and_put_now_on_its_axis() {
        let p: ProgressV = serde_json::from_str(
            r#"{"state": "in-progress", "nodes": [
                 {"node": "w-2", "stage": "in-progress", "step": "draining", "plannedStartSeconds": 1200, "plannedEndSeconds": 1800},
                 {"node": "w-3", "stage": "not-started"},
                 {"node": "w-1", "stage": "done", "plannedStartSeconds": 600, "plannedEndSeconds": 1200}],
                 "stuck": [{"node": "w-2", "cause": "db allows no disruption", "code": "disruption/pdb-blocks-drain", "predicted": true}],
                 "since": {"plannedSeconds": 3600, "elapsedSeconds": 3600, "actualDone": 1, "summary": "s"}}"#,
        )
        .unwrap();
        let (rows, end, now) = rows(&[("w-3", 100, 300)], &p);
        assert_eq!(now, Some(3600));
        assert_eq!(rows[0].stage, "stuck");
        assert_eq!(rows[0].window, Some((1200, 1800)));
        assert!(rows[0].detail.contains("stuck: db allows no disruption (predicted)"), "{}", rows[0].detail);
        // Not in the earlier plan: its window in the rest of the plan, from now.
        assert_eq!(rows[1].window, Some((3700, 3900)));
        assert_eq!(end, 3900);
    }
}
