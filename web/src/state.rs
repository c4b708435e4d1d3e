//! The dashboard's one state and its reducer. Pure: every check runs here, synchronously, in wasm.

use std::rc::Rc;

use kube_preflight::{check, Input, Profile, Report, UpgradeOptions};
use yew::Reducible;

use crate::demo::{demo_files, DEMO_TARGET};

#[derive(Debug, Clone, PartialEq)]
pub struct LoadedFile {
    pub name: String,
    pub content: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Findings,
    Plan,
    Inventory,
    Rules,
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub files: Vec<LoadedFile>,
    pub using_demo: bool,
    pub to: String,
    pub from: String,
    pub profile: Profile,
    pub tab: Tab,
    /// The report, or the error that stopped it (input or options), as text.
    pub result: Result<Rc<Report>, String>,
}

pub enum Action {
    LoadDemo,
    SetFiles(Vec<LoadedFile>),
    SetTo(String),
    SetFrom(String),
    SetProfile(Profile),
    SetTab(Tab),
}

impl State {
    pub fn demo() -> State {
        let mut s = State {
            files: demo_files(),
            using_demo: true,
            to: DEMO_TARGET.to_owned(),
            from: String::new(),
            profile: Profile::Kubeadm,
            tab: Tab::Findings,
            result: Err(String::new()),
        };
        s.recheck();
        s
    }

    pub fn options(&self) -> UpgradeOptions {
        let mut o = UpgradeOptions::new(self.to.trim());
        o.profile = self.profile;
        let from = self.from.trim();
        if !from.is_empty() {
            o.from = Some(from.to_owned());
        }
        o
    }

    fn recheck(&mut self) {
        let inputs: Vec<Input> = self.files.iter().map(|f| Input::new(f.name.clone(), f.content.as_bytes())).collect();
        self.result = check(&inputs, &self.options()).map(Rc::new).map_err(|e| e.to_string());
    }
}

impl Default for State {
    fn default() -> Self {
        State::demo()
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::LoadDemo => return Rc::new(State { tab: s.tab, ..State::demo() }),
            Action::SetFiles(files) => {
                s.files = files;
                s.using_demo = false;
            }
            Action::SetTo(to) => s.to = to,
            Action::SetFrom(from) => s.from = from,
            Action::SetProfile(p) => s.profile = p,
            Action::SetTab(t) => {
                s.tab = t;
                return Rc::new(s);
            }
        }
        s.recheck();
        Rc::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_produces_a_report() {
        let s = State::demo();
        let r = s.result.as_ref().expect("demo report");
        assert!(r.inventory.objects > 20);
        assert!(r.upgrade.from.is_some());
    }

    #[test]
    fn user_files_replace_the_demo_and_errors_are_shown() {
        let s = Rc::new(State::demo());
        let s = s.reduce(Action::SetFiles(vec![LoadedFile { name: "bad.yaml".into(), content: "a: [1\n".into() }]));
        assert!(!s.using_demo);
        assert!(s.result.as_ref().unwrap_err().starts_with("bad.yaml:"));
        let s = s.reduce(Action::SetTo("latest".into()));
        assert!(s.result.as_ref().unwrap_err().contains("`to`"));
    }
}
