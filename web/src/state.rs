//! The page's one state and its reducer. Pure: the worker does the reading and checking, and its
//! messages arrive here as actions; tested natively.

use std::cell::RefCell;
use std::rc::Rc;

use yew::Reducible;

use crate::demo::{DEMO_SIZES, DEMO_TARGET};
use crate::options::Opts;
use crate::protocol::{CurvePoint, FromWorker, InputInfo, NodeFacts};
use crate::view::{Filter, GroupBy, ReportView};

/// Findings drawn at first, and added by each "show more".
pub const PAGE: usize = 100;
/// Replay steps from start to end.
pub const REPLAY_STEPS: u64 = 240;

/// How the core says an input could not be parsed (`ingest::Ingested::unreadable`).
pub const UNREADABLE: &str = "not Kubernetes YAML or JSON";

/// One input as listed: what the page knows before reading, and what reading found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputRow {
    pub name: String,
    pub size: u64,
    /// Picked or pasted by name, not found in a folder: one that cannot be read leaves the report
    /// INCOMPLETE (the CLI refuses a named file it cannot parse; a folder's are listed as skipped).
    pub named: bool,
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
    Checks,
    Plan,
    Downtime,
    WhatIf,
    Inputs,
    Rules,
    Export,
}

impl Tab {
    pub const ALL: [Tab; 9] = [
        Tab::Overview,
        Tab::Findings,
        Tab::Checks,
        Tab::Plan,
        Tab::Downtime,
        Tab::WhatIf,
        Tab::Inputs,
        Tab::Rules,
        Tab::Export,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Tab::Overview => "overview",
            Tab::Findings => "findings",
            Tab::Checks => "checks",
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
            Tab::Checks => "Checks",
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

#[derive(Debug, Clone)]
pub struct State {
    pub inputs: Vec<InputRow>,
    pub using_demo: bool,
    pub opts: Opts,
    pub status: Status,
    pub report: Option<Rc<ReportView>>,
    pub nodes: Rc<Vec<NodeFacts>>,
    /// A report whose findings are still arriving: assembled in place, in a cell the states of one load
    /// share (every action clones the state; a clone of a report of 25,000 findings per part would be
    /// most of the load's main-thread time). Only the reducer reads it.
    pending: Rc<RefCell<Option<ReportView>>>,
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
    /// Every rule's docs by code, once known ([`rule_docs`]: the worker sends them, the element is created
    /// with them).
    pub docs: Rc<Vec<(String, String)>>,
    pub t: u64,
    pub playing: bool,
    pub theme: Theme,
    /// Messages the worker sent (the end-to-end test reads it to see that a worker did the work).
    pub from_worker: u64,
    /// The target is the demo's (no one chose it): a cluster of the user's own is checked against the minor
    /// after its own version instead.
    pub target_is_demo: bool,
    /// The last inputs asked for were read in full (the worker holds them: options can change).
    pub inputs_read: bool,
    /// The report shown is not for the inputs and options set now (they are being checked, or were refused).
    pub stale: bool,
    /// What the page did on its own, to say once (a cancel, a switch of profile).
    pub notice: Option<String>,
    /// The inputs of the report shown, while newer ones are read, with the options it was made under
    /// (what a cancel goes back to: the same report, never one under other options).
    prev_inputs: Option<Previous>,
    /// The report shown beside the same inputs under other options (the what-if's comparison).
    pub comparison: Option<Rc<Result<crate::protocol::Comparison, String>>>,
    /// When the inputs kept in this browser were kept (UTC), if any are.
    pub kept: Option<String>,
}

/// Two states are the same when their own fields are equal and their shared parts (the report, the nodes,
/// the curve, the lines, the docs, the comparison, the report being assembled) are the same allocations.
/// Every dispatch makes a new state and the context provider compares it with the last: compared by value,
/// a 150,000-pod report (its findings' data maps) took 60-130 ms of every tab switch. A shared part is
/// only ever replaced, never changed in place (but `pending`, which no component reads), so the same
/// allocation is the same value. Every field is named in the destructuring below (no `..`): a new one
/// does not compile until it is named there, and an unused name warns.
impl PartialEq for State {
    fn eq(&self, o: &Self) -> bool {
        fn same<T: ?Sized>(a: &Option<Rc<T>>, b: &Option<Rc<T>>) -> bool {
            match (a, b) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            }
        }
        let State {
            inputs,
            using_demo,
            opts,
            status,
            report,
            nodes,
            pending,
            curve,
            tab,
            filter,
            group,
            shown,
            open,
            lines,
            rule,
            docs,
            t,
            playing,
            theme,
            from_worker,
            target_is_demo,
            inputs_read,
            stale,
            notice,
            prev_inputs,
            comparison,
            kept,
        } = self;
        same(report, &o.report)
            && Rc::ptr_eq(nodes, &o.nodes)
            && Rc::ptr_eq(pending, &o.pending)
            && same(curve, &o.curve)
            && same(lines, &o.lines)
            && Rc::ptr_eq(docs, &o.docs)
            && same(comparison, &o.comparison)
            && (inputs, using_demo, opts, status, tab, filter, group, shown, open, rule)
                == (
                    &o.inputs,
                    &o.using_demo,
                    &o.opts,
                    &o.status,
                    &o.tab,
                    &o.filter,
                    &o.group,
                    &o.shown,
                    &o.open,
                    &o.rule,
                )
            && (t, playing, theme, from_worker, target_is_demo, inputs_read, stale, notice, prev_inputs, kept)
                == (
                    &o.t,
                    &o.playing,
                    &o.theme,
                    &o.from_worker,
                    &o.target_is_demo,
                    &o.inputs_read,
                    &o.stale,
                    &o.notice,
                    &o.prev_inputs,
                    &o.kept,
                )
    }
}

/// What a report shown was made from: its inputs, whether they were the demo's, its options.
#[derive(Debug, Clone, PartialEq)]
struct Previous {
    inputs: Vec<InputRow>,
    demo: bool,
    opts: Opts,
    target_is_demo: bool,
}

pub enum Action {
    /// New inputs are being read (the demo when `demo`) under `opts` (from [`State::opts_for_load`]).
    SetInputs {
        rows: Vec<InputRow>,
        demo: bool,
        opts: Opts,
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
    /// Say this once (and nothing when `None`).
    Notice(Option<String>),
    /// Inputs are kept in this browser since then (`None`: nothing is).
    Kept(Option<String>),
    /// The view a URL names (going back or forward in history).
    View {
        tab: Tab,
        filter: Filter,
        group: GroupBy,
        open: Option<usize>,
    },
}

/// Every rule's docs by code, from the core: what the worker sends and the element is given. The page never
/// calls it, so its own wasm carries no docs.
pub fn rule_docs() -> Vec<(String, String)> {
    kube_preflight::rules()
        .into_iter()
        .map(|r| (r.code.to_owned(), kube_preflight::rules::docs(r.code).to_owned()))
        .collect()
}

pub fn demo_rows() -> Vec<InputRow> {
    DEMO_SIZES
        .iter()
        .map(|(n, size)| InputRow { name: (*n).to_owned(), size: *size as u64, named: false, info: None })
        .collect()
}

impl State {
    /// A rule's docs (Markdown), or nothing until they are known.
    pub fn docs_of(&self, code: &str) -> &str {
        self.docs.iter().find(|(c, _)| c == code).map_or("", |(_, d)| d.as_str())
    }

    /// The page as it opens: the demo being read, under the URL's options.
    pub fn new(opts: Opts, tab: Tab, theme: Theme) -> State {
        let mut opts = opts;
        let target_is_demo = opts.to.trim().is_empty();
        if target_is_demo {
            opts.to = DEMO_TARGET.to_owned();
        }
        State {
            inputs: demo_rows(),
            using_demo: true,
            opts,
            status: Status::Checking,
            report: None,
            nodes: Rc::new(Vec::new()),
            pending: Rc::default(),
            curve: None,
            tab,
            filter: Filter::default(),
            group: GroupBy::None,
            shown: PAGE,
            open: None,
            lines: None,
            docs: Rc::default(),
            rule: None,
            t: 0,
            playing: false,
            theme,
            from_worker: 0,
            target_is_demo,
            inputs_read: false,
            stale: true,
            notice: None,
            prev_inputs: None,
            comparison: None,
            kept: None,
        }
    }

    /// No one chose the target: it is the demo's, or left empty.
    fn target_unchosen(&self) -> bool {
        self.target_is_demo || self.opts.to.trim().is_empty()
    }

    /// The options to read new inputs under: the demo's target for the demo when no one chose one, and for
    /// the user's own inputs no target when the demo's was never changed (the engine then takes the minor
    /// after the cluster's own version).
    pub fn opts_for_load(&self, demo: bool) -> Opts {
        let mut o = self.opts.clone();
        if self.target_unchosen() {
            o.to = if demo { DEMO_TARGET.to_owned() } else { String::new() };
        }
        o
    }

    /// What the report alone does not say (for the summary, the HTML report and the print view).
    pub fn meta(&self, date: String) -> crate::review::Meta {
        let report = self.report.as_ref();
        let mut options = self.opts.pairs(&[]);
        if let Some(r) = report {
            if self.opts.to.trim().is_empty() {
                options.insert(
                    0,
                    ("to".to_owned(), format!("{} (not set: the minor after the current version)", r.upgrade.to)),
                );
            }
            if self.opts.profile.trim().is_empty() {
                let at = options.iter().position(|(k, _)| k != "to" && k != "from").unwrap_or(options.len());
                options.insert(at, ("profile".to_owned(), format!("{} (default)", r.upgrade.profile)));
            }
        }
        crate::review::Meta {
            date,
            version: kube_preflight::version().to_owned(),
            inputs: self
                .inputs
                .iter()
                .map(|i| {
                    let info = i.info.as_ref();
                    let result = match info.and_then(|x| x.skipped.clone()) {
                        Some(why) => Err(why),
                        None => Ok(info.map_or(0, |x| x.objects)),
                    };
                    (i.name.clone(), result)
                })
                .collect(),
            demo: self.using_demo,
            options,
        }
    }

    /// The URL query that keeps the options and the view (tab, findings filter, grouping, open finding,
    /// theme), never cluster data; [`Action::view_of`] reads the view back.
    pub fn url_query(&self) -> String {
        let open = self.open.map(|i| i.to_string()).unwrap_or_default();
        let pairs = self.filter.pairs();
        let mut extra: Vec<(&str, &str)> = vec![("tab", self.tab.id())];
        extra.extend(pairs.iter().map(|(k, v)| (*k, v.as_str())));
        if self.group != GroupBy::None {
            extra.push(("group", self.group.name()));
        }
        extra.push(("finding", &open));
        if self.theme != Theme::Auto {
            extra.push(("theme", self.theme.name()));
        }
        self.opts.to_query(&extra)
    }

    /// Names of inputs, for a sentence.
    fn names(rows: &[InputRow]) -> String {
        match rows {
            [] => "no input".to_owned(),
            [one] => one.name.clone(),
            [first, rest @ ..] => format!("{} and {} more", first.name, rest.len()),
        }
    }

    /// The options a cancel checks under: those of the report shown when the cancel goes back to its
    /// inputs, else the ones set now.
    pub fn opts_on_cancel(&self) -> Opts {
        match &self.prev_inputs {
            Some(prev) if !self.inputs_read => prev.opts.clone(),
            _ => self.opts.clone(),
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
                self.inputs_read = true;
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
                    self.pending = Rc::new(RefCell::new(Some(r)));
                    self.curve = None;
                }
                Err(e) => self.status = Status::Failed(format!("the worker's report cannot be read: {e}")),
            },
            FromWorker::Findings { part, last, revealed, .. } => {
                if let Some(r) = self.pending.borrow_mut().as_mut() {
                    if let Err(e) = r.take_part(&part, revealed) {
                        self.status = Status::Failed(format!("the worker's findings cannot be read: {e}"));
                    }
                }
                if last {
                    let done = self.pending.borrow_mut().take();
                    if let Some(mut r) = done {
                        r.unreadable = self
                            .inputs
                            .iter()
                            .filter(|row| row.named)
                            .filter_map(|row| {
                                let why = row.info.as_ref()?.skipped.as_ref()?;
                                why.starts_with(UNREADABLE).then(|| (row.name.clone(), why.clone()))
                            })
                            .collect();
                        self.t = self.t.min(r.plan.total_seconds);
                        if self.open.is_some_and(|i| i >= r.findings.len()) {
                            self.open = None;
                        }
                        self.report = Some(Rc::new(r));
                        self.comparison = None;
                        self.status = Status::Idle;
                        self.stale = false;
                        self.prev_inputs = None;
                    }
                }
            }
            FromWorker::Failed { message, .. } => {
                self.pending = Rc::default();
                self.status = Status::Failed(message);
                if self.prev_inputs.take().is_some() {
                    // The report shown is for other inputs: it says nothing of these.
                    self.report = None;
                }
            }
            FromWorker::Curve { pool, size, points, done, .. } => {
                self.curve = Some(Rc::new(Curve { pool, size, points, done }));
            }
            FromWorker::Lines { file, first, lines } => self.lines = Some(Rc::new((file, first, lines))),
            FromWorker::Export { .. } => {}
            FromWorker::Compared { comparison, error } => {
                let c =
                    comparison.map(|c| *c).ok_or_else(|| error.unwrap_or_else(|| "no comparison was made".to_owned()));
                self.comparison = Some(Rc::new(c));
            }
            FromWorker::Docs { docs } => self.docs = Rc::new(docs),
        }
    }
}

impl Action {
    /// The view a URL names (the pairs [`Opts::from_query`] leaves): tab, filter, grouping, open finding.
    pub fn view_of(rest: &[(String, String)]) -> Action {
        let get = |k: &str| rest.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str()).unwrap_or_default();
        Action::View {
            tab: Tab::parse(get("tab")).unwrap_or(Tab::Overview),
            filter: Filter::from_pairs(rest),
            group: GroupBy::parse(get("group")),
            open: get("finding").parse().ok(),
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::SetInputs { rows, demo, opts } => {
                if s.report.is_some() && !s.stale {
                    s.prev_inputs = Some(Previous {
                        inputs: std::mem::take(&mut s.inputs),
                        demo: s.using_demo,
                        opts: s.opts.clone(),
                        target_is_demo: s.target_is_demo,
                    });
                }
                s.target_is_demo = demo && s.target_unchosen();
                s.opts = opts;
                s.inputs = rows;
                s.using_demo = demo;
                s.inputs_read = false;
                s.stale = true;
                s.notice = None;

                s.status = Status::Reading {
                    bytes: 0,
                    total: s.inputs.iter().map(|r| r.size).sum(),
                    objects: 0,
                    file: String::new(),
                };
                s.pending = Rc::default();
                if s.report.is_some() {
                    s.open = None;
                }
                s.lines = None;
            }
            Action::SetOpts(o) => {
                if o.to != s.opts.to {
                    s.target_is_demo = false;
                }
                s.opts = o;
                // Options changed while the inputs are read: they are read again (`Bridge::ask`).
                if !matches!(s.status, Status::Reading { .. }) {
                    s.status = Status::Checking;
                }
                s.stale = true;
            }
            Action::Worker(m) => s.on_worker(m),
            Action::Cancelled => {
                s.pending = Rc::default();
                let stopped = State::names(&s.inputs);
                if s.inputs_read {
                    // The worker holds these inputs: it checks them again from the start.
                    s.status = Status::Checking;
                    s.notice =
                        Some(format!("Cancelled: {stopped} is checked again from the start (what was read is kept)."));
                } else if let Some(prev) = s.prev_inputs.take() {
                    // Back to what the report shown was made from, its options too (the worker reads it
                    // again under them: `State::opts_on_cancel`).
                    s.notice = Some(format!(
                        "Cancelled: {stopped} was not read. The report is still the one for {}.",
                        State::names(&prev.inputs)
                    ));
                    s.inputs = prev.inputs;
                    s.using_demo = prev.demo;
                    s.opts = prev.opts;
                    s.target_is_demo = prev.target_is_demo;
                    s.status = Status::Checking;
                } else {
                    s.notice = Some(format!("Cancelled: {stopped} was not read, and nothing else was."));
                    s.inputs = Vec::new();
                    s.using_demo = false;
                    s.report = None;
                    s.status = Status::Idle;
                }
            }
            Action::Notice(n) => s.notice = n,
            Action::Kept(k) => s.kept = k,
            Action::View { tab, filter, group, open } => {
                s.tab = tab;
                s.filter = filter;
                s.group = group;
                s.open = open;
                s.shown = PAGE.max(open.map_or(0, |i| i + 1));
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
                s.stale = false;
                s.inputs = Vec::new();
                s.using_demo = false;
                s.pending = Rc::default();
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

    #[test]
    fn a_rules_docs_are_there_once_the_worker_sent_them() {
        let s = Rc::new(State::new(Opts::default(), Tab::Overview, Theme::Auto));
        assert_eq!(s.docs_of("api/removed"), "");
        let s = s.reduce(Action::Worker(FromWorker::Docs { docs: rule_docs() }));
        assert!(s.docs_of("api/removed").starts_with("## What it checks"));
        assert_eq!(s.docs_of("no/such-rule"), "");
    }

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
    fn states_compare_their_shared_parts_by_pointer_and_the_rest_by_value() {
        let s = reduce_all(Rc::new(State::new(Opts::default(), Tab::Overview, Theme::Auto)), {
            let o = State::new(Opts::default(), Tab::Overview, Theme::Auto).opts.to_json();
            demo_messages(&o)
        });
        let same = (*s).clone();
        assert_eq!(*s, same, "a clone shares every part");
        // The same report in another allocation is another report to show: the views render again.
        let mut copy = (*s).clone();
        copy.report = copy.report.as_ref().map(|r| Rc::new((**r).clone()));
        assert_eq!(copy.report, s.report, "equal reports");
        assert_ne!(*s, copy);
        let other_tab = s.clone().reduce(Action::Tab(Tab::Plan));
        assert_ne!(*s, *other_tab);
        assert!(Rc::ptr_eq(other_tab.report.as_ref().unwrap(), s.report.as_ref().unwrap()));
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
    fn a_cancel_goes_back_to_the_inputs_of_the_report_shown_and_says_so() {
        let s = Rc::new(State::new(Opts::default(), Tab::Overview, Theme::Auto));
        let s = reduce_all(s.clone(), demo_messages(&s.opts.to_json()));
        assert!(!s.stale);
        let before = s.report.clone();
        let before_opts = s.opts.clone();
        let rows = vec![InputRow { name: "big.json".into(), size: 10, named: true, info: None }];
        // Loading one's own inputs leaves the target to them: the demo's is dropped.
        let o = s.opts_for_load(false);
        assert_ne!(o, before_opts);
        let s = s.reduce(Action::SetInputs { rows, demo: false, opts: o });
        assert!(matches!(s.status, Status::Reading { bytes: 0, .. }));
        assert!(s.stale && !s.inputs_read);
        let s = s.reduce(Action::Worker(FromWorker::Progress {
            generation: 2,
            bytes: 5,
            total: 10,
            objects: 1,
            file: "big.json".into(),
        }));
        assert_eq!(s.status, Status::Reading { bytes: 5, total: 10, objects: 1, file: "big.json".into() });
        assert_eq!(s.opts_on_cancel(), before_opts);
        let s = s.reduce(Action::Cancelled);
        // The inputs listed are the demo's again, with what reading them found, and the options the report
        // was made under: the verdict, the target and the counts are still theirs.
        assert_eq!(s.opts, before_opts);
        assert!(s.target_is_demo);
        assert!(s.using_demo);
        assert_eq!(s.inputs.len(), DEMO_SIZES.len());
        assert!(s.inputs.iter().all(|i| i.info.is_some()));
        assert_eq!(s.report, before);
        assert_eq!(
            s.notice.as_deref(),
            Some("Cancelled: big.json was not read. The report is still the one for demo/cluster.yaml and 1 more.")
        );
        // The worker reads them again; once checked, the report is current.
        let s = reduce_all(s.clone(), demo_messages(&s.opts.to_json()));
        assert!(!s.stale);
        assert_eq!(s.status, Status::Idle);
    }

    #[test]
    fn a_cancel_of_the_first_reading_leaves_nothing_shown() {
        let s = Rc::new(State::new(Opts::default(), Tab::Overview, Theme::Auto));
        let s = s.reduce(Action::Cancelled);
        assert_eq!((s.report.is_none(), s.inputs.len(), &s.status), (true, 0, &Status::Idle));
        assert!(s.notice.as_deref().is_some_and(|n| n.ends_with("was not read, and nothing else was.")));
    }

    #[test]
    fn refused_options_leave_the_last_report_marked_stale() {
        let s = Rc::new(State::new(Opts::default(), Tab::Overview, Theme::Auto));
        let s = reduce_all(s.clone(), demo_messages(&s.opts.to_json()));
        let before = s.report.clone();
        let mut o = s.opts.clone();
        o.max_surge = "ten".into();
        let s = s.reduce(Action::SetOpts(o));
        let s = s.reduce(Action::Worker(FromWorker::Failed { generation: 3, message: "maxSurge: bad".into() }));
        assert_eq!(s.status, Status::Failed("maxSurge: bad".into()));
        assert_eq!(s.report, before);
        assert!(s.stale, "the report shown is not for the options set");
    }

    #[test]
    fn inputs_that_cannot_be_checked_drop_the_report_of_the_inputs_before() {
        let s = Rc::new(State::new(Opts::default(), Tab::Overview, Theme::Auto));
        let s = reduce_all(s.clone(), demo_messages(&s.opts.to_json()));
        let o = s.opts_for_load(false);
        let s = s.reduce(Action::SetInputs { rows: vec![], demo: false, opts: o });
        let s = s.reduce(Action::Worker(FromWorker::Failed { generation: 2, message: "to: no target".into() }));
        assert!(s.report.is_none(), "the demo's verdict is not this cluster's");
    }

    #[test]
    fn the_review_meta_names_the_inputs_and_every_option_as_checked() {
        let s = Rc::new(State::new(Opts::default(), Tab::Overview, Theme::Auto));
        let s = reduce_all(s.clone(), demo_messages(&s.opts.to_json()));
        let m = s.meta("2026-11-24 03:00".into());
        assert!(m.demo);
        assert_eq!(m.inputs.len(), DEMO_SIZES.len());
        assert!(m.inputs.iter().all(|(_, r)| r.as_ref().is_ok_and(|n| *n > 0)));
        assert_eq!(
            m.options,
            [("to".to_owned(), DEMO_TARGET.to_owned()), ("profile".to_owned(), "kubeadm (default)".to_owned())]
        );
    }

    #[test]
    fn the_url_keeps_the_view_and_gives_it_back() {
        let s = Rc::new(State::new(Opts::default(), Tab::Findings, Theme::Dark));
        let f = Filter { rule: "api/removed".into(), text: "a b".into(), ..Filter::default() };
        let s = s.reduce(Action::Filter(f.clone())).reduce(Action::Group(GroupBy::Rule)).reduce(Action::Open(Some(3)));
        let (opts, rest) = Opts::from_query(&format!("?{}", s.url_query()), Opts::default());
        assert_eq!(opts, s.opts);
        let back = Rc::new(State::new(opts, Tab::Overview, Theme::Auto)).reduce(Action::view_of(&rest));
        assert_eq!((back.tab, &back.filter, back.group, back.open), (Tab::Findings, &f, GroupBy::Rule, Some(3)));
    }

    #[test]
    fn the_demo_target_is_the_demos_a_chosen_target_stays() {
        let s = Rc::new(State::new(Opts::default(), Tab::Overview, Theme::Auto));
        assert!(s.target_is_demo);
        // The user's own cluster: no target, the engine takes the minor after its version.
        let o = s.opts_for_load(false);
        assert_eq!(o.to, "");
        let s = s.reduce(Action::SetInputs { rows: vec![], demo: false, opts: o });
        assert!(!s.target_is_demo);
        // Back to the demo: its target again.
        let o = s.opts_for_load(true);
        assert_eq!(o.to, DEMO_TARGET);
        let s = s.reduce(Action::SetInputs { rows: demo_rows(), demo: true, opts: o });
        assert!(s.target_is_demo);
        // A target the user typed (or the URL gave) stays for any inputs.
        let mut o = s.opts.clone();
        o.to = "1.30.1".into();
        let s = s.reduce(Action::SetOpts(o));
        assert_eq!(s.opts_for_load(false).to, "1.30.1");
        let from_url = State::new(Opts { to: "1.31.0".into(), ..Opts::default() }, Tab::Overview, Theme::Auto);
        assert_eq!(from_url.opts_for_load(false).to, "1.31.0");
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
