//! The page's one state and its reducer. Pure: the worker does the reading and checking, and its
//! messages arrive here as actions; tested natively.

use std::rc::Rc;

use yew::Reducible;

use crate::demo::{DEMO_FILES, DEMO_TARGET};
use crate::options::Opts;
use crate::protocol::{CurvePoint, FromWorker, InputInfo, NodeFacts};
use crate::view::{Filter, FindingV, GroupBy, ReportView};

/// Findings drawn at first, and added by each "show more".
pub const PAGE: usize = 100;
/// Replay steps from start to end.
pub const REPLAY_STEPS: u64 = 240;

/// One input as listed: what the page knows before reading, and what reading found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputRow {
    pub name: String,
    pub size: u64,
    /// What reading found (objects, or why it was left out), once read.
    pub info: Option<InputInfo>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Idle,
    Reading { bytes: u64, total: u64, objects: u64, file: String },
    Checking,
    Failed(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Overview,
    Findings,
    Plan,
    Downtime,
    WhatIf,
    Inputs,
    Rules,
    Export,
}

impl Tab {
    pub const ALL: [Tab; 8] =
        [Tab::Overview, Tab::Findings, Tab::Plan, Tab::Downtime, Tab::WhatIf, Tab::Inputs, Tab::Rules, Tab::Export];

    pub fn id(self) -> &'static str {
        match self {
            Tab::Overview => "overview",
            Tab::Findings => "findings",
            Tab::Plan => "plan",
            Tab::Downtime => "downtime",
            Tab::WhatIf => "whatif",
            Tab::Inputs => "inputs",
            Tab::Rules => "rules",
            Tab::Export => "export",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Tab::Overview => "Overview",
            Tab::Findings => "Findings",
            Tab::Plan => "Plan & replay",
            Tab::Downtime => "Downtime",
            Tab::WhatIf => "What-if",
            Tab::Inputs => "Inputs",
            Tab::Rules => "Rules",
            Tab::Export => "Export & print",
        }
    }

    pub fn parse(s: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|t| t.id() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub fn name(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub fn parse(s: &str) -> Theme {
        match s {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::Auto,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Curve {
    pub pool: String,
    pub size: u32,
    pub points: Vec<CurvePoint>,
    pub done: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub inputs: Vec<InputRow>,
    pub using_demo: bool,
    pub opts: Opts,
    pub status: Status,
    pub report: Option<Rc<ReportView>>,
    pub nodes: Rc<Vec<NodeFacts>>,
    /// A report whose findings are still arriving.
    pending: Option<ReportView>,
    pub curve: Option<Rc<Curve>>,
    pub tab: Tab,
    pub filter: Filter,
    pub group: GroupBy,
    pub shown: usize,
    /// The finding whose details are open (its index in the report).
    pub open: Option<usize>,
    /// Lines of a source file: file, first line, lines.
    pub lines: Option<Rc<(String, u32, Vec<String>)>>,
    pub rule: Option<String>,
    pub t: u64,
    pub playing: bool,
    pub theme: Theme,
    /// Messages the worker sent (the end-to-end test reads it to see that a worker did the work).
    pub from_worker: u64,
}

pub enum Action {
    /// New inputs are being read (the demo when `demo`).
    SetInputs {
        rows: Vec<InputRow>,
        demo: bool,
    },
    SetOpts(Opts),
    Worker(FromWorker),
    Cancelled,
    Tab(Tab),
    Filter(Filter),
    Group(GroupBy),
    ShowMore,
    Open(Option<usize>),
    Rule(Option<String>),
    Time(u64),
    Play(bool),
    Tick,
    Theme(Theme),
    /// A report given whole (the `<kube-preflight-report>` element): shown as it is, no worker.
    Show(Rc<ReportView>),
}

pub fn demo_rows() -> Vec<InputRow> {
    DEMO_FILES.iter().map(|(n, t)| InputRow { name: (*n).to_owned(), size: t.len() as u64, info: None }).collect()
}

impl State {
    /// The page as it opens: the demo being read, under the URL's options.
    pub fn new(opts: Opts, tab: Tab, theme: Theme) -> State {
        let mut opts = opts;
        if opts.to.trim().is_empty() {
            opts.to = DEMO_TARGET.to_owned();
        }
        State {
            inputs: demo_rows(),
            using_demo: true,
            opts,
            status: Status::Checking,
            report: None,
            nodes: Rc::new(Vec::new()),
            pending: None,
            curve: None,
            tab,
            filter: Filter::default(),
            group: GroupBy::None,
            shown: PAGE,
            open: None,
            lines: None,
            rule: None,
            t: 0,
            playing: false,
            theme,
            from_worker: 0,
        }
    }

    pub fn busy(&self) -> bool {
        matches!(self.status, Status::Reading { .. } | Status::Checking)
    }

    fn on_worker(&mut self, m: FromWorker) {
        self.from_worker += 1;
        match m {
            FromWorker::Progress { bytes, total, objects, file, .. } => {
                self.status = Status::Reading { bytes, total, objects, file };
            }
            FromWorker::Inputs { inputs, nodes, .. } => {
                self.nodes = Rc::new(nodes);
                for info in inputs {
                    if let Some(row) = self.inputs.iter_mut().find(|r| r.name == info.name && r.info.is_none()) {
                        row.info = Some(info);
                    }
                }
                self.status = Status::Checking;
            }
            FromWorker::Report { report, .. } => match serde_json::from_str::<ReportView>(&report) {
                Ok(r) => {
                    self.pending = Some(r);
                    self.curve = None;
                }
                Err(e) => self.status = Status::Failed(format!("the worker's report cannot be read: {e}")),
            },
            FromWorker::Findings { part, last, .. } => {
                if let Some(r) = self.pending.as_mut() {
                    match serde_json::from_str::<Vec<FindingV>>(&part) {
                        Ok(f) => r.findings.extend(f),
                        Err(e) => self.status = Status::Failed(format!("the worker's findings cannot be read: {e}")),
                    }
                }
                if last {
                    if let Some(r) = self.pending.take() {
                        self.t = self.t.min(r.plan.total_seconds);
                        if self.open.is_some_and(|i| i >= r.findings.len()) {
                            self.open = None;
                        }
                        self.report = Some(Rc::new(r));
                        self.status = Status::Idle;
                    }
                }
            }
            FromWorker::Failed { message, .. } => {
                self.pending = None;
                self.status = Status::Failed(message);
            }
            FromWorker::Curve { pool, size, points, done, .. } => {
                self.curve = Some(Rc::new(Curve { pool, size, points, done }));
            }
            FromWorker::Lines { file, first, lines } => self.lines = Some(Rc::new((file, first, lines))),
            FromWorker::Export { .. } => {}
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::SetInputs { rows, demo } => {
                s.inputs = rows;
                s.using_demo = demo;
                s.status = Status::Reading {
                    bytes: 0,
                    total: s.inputs.iter().map(|r| r.size).sum(),
                    objects: 0,
                    file: String::new(),
                };
                s.pending = None;
                s.open = None;
                s.lines = None;
            }
            Action::SetOpts(o) => {
                s.opts = o;
                s.status = Status::Checking;
            }
            Action::Worker(m) => s.on_worker(m),
            Action::Cancelled => {
                s.pending = None;
                s.status = Status::Failed("Cancelled: the report shown is the last one completed.".to_owned());
            }
            Action::Tab(t) => s.tab = t,
            Action::Filter(f) => {
                s.filter = f;
                s.shown = PAGE;
            }
            Action::Group(g) => s.group = g,
            Action::ShowMore => s.shown += PAGE,
            Action::Open(i) => {
                s.open = if s.open == i { None } else { i };
                s.lines = None;
            }
            Action::Rule(r) => s.rule = r,
            Action::Time(t) => s.t = t,
            Action::Play(p) => {
                let total = s.report.as_ref().map_or(0, |r| r.plan.total_seconds);
                if p && s.t >= total {
                    s.t = 0;
                }
                s.playing = p;
            }
            Action::Tick => {
                let total = s.report.as_ref().map_or(0, |r| r.plan.total_seconds);
                s.t = (s.t + total.div_ceil(REPLAY_STEPS).max(1)).min(total);
                if s.t >= total {
                    s.playing = false;
                }
            }
            Action::Theme(t) => s.theme = t,
            Action::Show(r) => {
                s.inputs = Vec::new();
                s.using_demo = false;
                s.pending = None;
                s.curve = None;
                s.open = None;
                s.t = 0;
                s.report = Some(r);
                s.status = Status::Idle;
            }
        }
        Rc::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::demo_specs;
    use crate::engine::{Engine, Held};

    /// The messages the worker sends for the demo, from the engine itself.
    fn demo_messages(options: &str) -> Vec<FromWorker> {
        let mut e = Engine::default();
        let mut out = Vec::new();
        let infos = e.load(1, options, demo_specs(), &mut Held, &mut |m| out.push(m)).unwrap();
        out.push(FromWorker::Inputs { generation: 1, inputs: infos, nodes: e.nodes.clone() });
        out.extend(e.check(1, None).unwrap());
        out
    }

    fn reduce_all(mut s: Rc<State>, msgs: Vec<FromWorker>) -> Rc<State> {
        for m in msgs {
            s = s.reduce(Action::Worker(m));
        }
        s
    }

    #[test]
    fn the_demo_reads_into_a_report_with_every_finding() {
        let s = Rc::new(State::new(Opts::default(), Tab::Overview, Theme::Auto));
        assert_eq!(s.opts.to, DEMO_TARGET);
        assert!(s.busy());
        let msgs = demo_messages(&s.opts.to_json());
        let n = msgs.len() as u64;
        let s = reduce_all(s, msgs);
        assert_eq!(s.status, Status::Idle);
        assert_eq!(s.from_worker, n);
        let r = s.report.as_ref().unwrap();
        assert_eq!(r.findings.len() as u64, r.summary.blocker + r.summary.warning + r.summary.info);
        assert!(s.inputs.iter().all(|i| i.info.as_ref().is_some_and(|x| x.objects > 0)));
        assert!(!s.nodes.is_empty());
    }

    #[test]
    fn progress_failures_and_cancel_keep_the_last_report() {
        let s = Rc::new(State::new(Opts::default(), Tab::Overview, Theme::Auto));
        let s = reduce_all(s.clone(), demo_messages(&s.opts.to_json()));
        let before = s.report.clone();
        let s = s.reduce(Action::SetInputs { rows: demo_rows(), demo: true });
        assert!(matches!(s.status, Status::Reading { bytes: 0, .. }));
        let s = s.reduce(Action::Worker(FromWorker::Progress {
            generation: 2,
            bytes: 5,
            total: 10,
            objects: 1,
            file: "a".into(),
        }));
        assert_eq!(s.status, Status::Reading { bytes: 5, total: 10, objects: 1, file: "a".into() });
        let s = s.reduce(Action::Cancelled);
        assert!(matches!(&s.status, Status::Failed(m) if m.starts_with("Cancelled")));
        assert_eq!(s.report, before);
        let s = s.reduce(Action::Worker(FromWorker::Failed { generation: 3, message: "maxSurge: bad".into() }));
        assert_eq!(s.status, Status::Failed("maxSurge: bad".into()));
        assert_eq!(s.report, before);
    }

    #[test]
    fn the_replay_plays_to_the_end_and_stops() {
        let s = Rc::new(State::new(Opts::default(), Tab::Plan, Theme::Dark));
        let mut s = reduce_all(s.clone(), demo_messages(&s.opts.to_json())).reduce(Action::Play(true));
        let total = s.report.as_ref().unwrap().plan.total_seconds;
        for _ in 0..=REPLAY_STEPS {
            s = s.reduce(Action::Tick);
        }
        assert_eq!(s.t, total);
        assert!(!s.playing);
        let s = s.reduce(Action::Play(true));
        assert_eq!(s.t, 0, "playing again starts over");
    }

    #[test]
    fn opening_a_finding_twice_closes_it_and_filters_reset_the_page() {
        let s = Rc::new(State::new(Opts::default(), Tab::Findings, Theme::Auto));
        let s = s.reduce(Action::ShowMore).reduce(Action::Open(Some(2)));
        assert_eq!((s.shown, s.open), (2 * PAGE, Some(2)));
        let s =
            s.reduce(Action::Open(Some(2))).reduce(Action::Filter(Filter { text: "x".into(), ..Filter::default() }));
        assert_eq!((s.shown, s.open), (PAGE, None));
    }
}
