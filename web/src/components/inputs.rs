//! Inputs: files picked or dropped, a whole folder picked or dropped, pasted text, or the demo;
//! and the list of what each turned out to be.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{File, FileList, HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::ctx::{mb, use_ctx, Ctx};
use crate::protocol::{FromWorker, InputSpec, Source};
use crate::state::{Action, InputRow};

const NOT_READ: &str = "not .yaml, .yml or .json: not read";

fn readable(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.ends_with(".yaml") || n.ends_with(".yml") || n.ends_with(".json")
}

/// Read picked or dropped files; from a folder, files of other kinds are listed and passed over.
fn load_files(ctx: &Ctx, list: Option<FileList>, folder: bool) {
    let Some(list) = list else { return };
    let files: Vec<(String, File, bool)> = (0..list.length())
        .filter_map(|i| list.get(i))
        .map(|f| {
            let rel =
                js_sys::Reflect::get(&f, &JsValue::from_str("webkitRelativePath")).ok().and_then(|v| v.as_string());
            (rel.filter(|r| !r.is_empty()).unwrap_or_else(|| f.name()), f, folder)
        })
        .collect();
    load_named(ctx, files);
}

/// Read files by name (the path inside a folder for a folder's files, which are passed over when not
/// YAML or JSON), in name order.
fn load_named(ctx: &Ctx, mut files: Vec<(String, File, bool)>) {
    if files.is_empty() {
        return;
    }
    kube_preflight::sort::sort_by(&mut files, |a, b| a.0.cmp(&b.0));
    let mut rows = Vec::new();
    let mut specs = Vec::new();
    let mut kept = Vec::new();
    for (name, f, from_folder) in files {
        let passed_over = (from_folder && !readable(&name)).then(|| NOT_READ.to_owned());
        let source = if passed_over.is_some() {
            Source::Text { text: String::new() }
        } else {
            kept.push(f.clone());
            Source::File { index: kept.len() - 1 }
        };
        rows.push(InputRow { name: name.clone(), size: f.size() as u64, named: !from_folder, info: None });
        specs.push(InputSpec { name, source, passed_over });
    }
    ctx.load(rows, specs, kept, false);
}

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Call `obj[method](resolve, reject)` (the File and Directory Entries API's callback style) as a future.
async fn called_back(obj: &JsValue, method: &str) -> Result<JsValue, JsValue> {
    let f: js_sys::Function = get(obj, method).dyn_into()?;
    let p = js_sys::Promise::new(&mut |resolve, reject| {
        let _ = f.call2(obj, &resolve, &reject);
    });
    wasm_bindgen_futures::JsFuture::from(p).await
}

/// A dropped folder's files, by their path from the folder (as the folder picker names them), found
/// through the File and Directory Entries API (`webkitGetAsEntry`): a drop hands over only its top items.
async fn walk_entries(top: Vec<JsValue>) -> Result<Vec<(String, File, bool)>, JsValue> {
    let mut files = Vec::new();
    let mut stack: Vec<(JsValue, String, bool)> = top
        .into_iter()
        .map(|e| (get(&e, "name").as_string().unwrap_or_default(), e))
        .map(|(n, e)| (e, n, false))
        .collect();
    while let Some((entry, path, inside)) = stack.pop() {
        if get(&entry, "isDirectory").as_bool() == Some(true) {
            let reader = js_sys::Function::from(get(&entry, "createReader")).call0(&entry)?;
            // readEntries hands out a batch at a time, and an empty one at the end.
            loop {
                let batch = js_sys::Array::from(&called_back(&reader, "readEntries").await?);
                if batch.length() == 0 {
                    break;
                }
                for e in batch.iter() {
                    let name = get(&e, "name").as_string().unwrap_or_default();
                    stack.push((e, format!("{path}/{name}"), true));
                }
            }
        } else {
            let file: File = called_back(&entry, "file").await?.dyn_into()?;
            files.push((path, file, inside));
        }
    }
    Ok(files)
}

/// A drop: its files, and every file of a dropped folder.
fn load_drop(ctx: &Ctx, data: web_sys::DataTransfer) {
    // Entries must be taken while the event is being handled; the walk may come after.
    let items = get(&data, "items");
    let entries: Vec<JsValue> = (0..get(&items, "length").as_f64().unwrap_or(0.0) as u32)
        .map(|i| js_sys::Reflect::get_u32(&items, i).unwrap_or(JsValue::UNDEFINED))
        .filter(|item| get(item, "kind").as_string().as_deref() == Some("file"))
        .filter_map(|item| js_sys::Function::from(get(&item, "webkitGetAsEntry")).call0(&item).ok())
        .filter(|e| !e.is_null() && !e.is_undefined())
        .collect();
    if !entries.iter().any(|e| get(e, "isDirectory").as_bool() == Some(true)) {
        load_files(ctx, data.files(), false);
        return;
    }
    let ctx = ctx.clone();
    wasm_bindgen_futures::spawn_local(async move {
        match walk_entries(entries).await {
            Ok(files) => load_named(&ctx, files),
            Err(e) => {
                let why = js_sys::Reflect::get(&e, &JsValue::from_str("message")).ok().and_then(|m| m.as_string());
                let message = format!("The dropped folder cannot be read: {}", why.unwrap_or_else(|| format!("{e:?}")));
                ctx.send(Action::Worker(FromWorker::Failed { generation: 0, message }));
            }
        }
    });
}

#[component]
pub fn InputsBar() -> Html {
    let ctx = use_ctx();
    let pasting = use_state(|| false);
    let dragging = use_state(|| false);
    // The file picker and the folder picker: read what was picked, and clear the control for the next pick.
    let on_pick = |folder: bool| {
        let ctx = ctx.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            load_files(&ctx, input.files(), folder);
            input.set_value("");
        })
    };
    let (on_files, on_folder) = (on_pick(false), on_pick(true));
    let on_drop = {
        let (ctx, dragging) = (ctx.clone(), dragging.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            if let Some(data) = e.data_transfer() {
                load_drop(&ctx, data);
            }
        })
    };
    let on_over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(true);
        })
    };
    let on_leave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let on_paste = {
        let ctx = ctx.clone();
        let pasting = pasting.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(area) = ctx.by_id("paste-text").map(wasm_bindgen::JsCast::unchecked_into::<HtmlTextAreaElement>)
            else {
                return;
            };
            let text = area.value();
            if text.trim().is_empty() {
                return;
            }
            let name = "pasted.yaml".to_owned();
            let rows = vec![InputRow { name: name.clone(), size: text.len() as u64, named: true, info: None }];
            let specs = vec![InputSpec { name, source: Source::Text { text }, passed_over: None }];
            ctx.load(rows, specs, Vec::new(), false);
            pasting.set(false);
        })
    };
    let toggle_paste = {
        let pasting = pasting.clone();
        Callback::from(move |_| pasting.set(!*pasting))
    };
    let on_demo = {
        let ctx = ctx.clone();
        Callback::from(move |_| ctx.load_demo())
    };
    let s = &ctx.state;
    let objects: u64 = s.inputs.iter().filter_map(|r| r.info.as_ref()).map(|i| i.objects).sum();
    let left_out = s.inputs.iter().filter(|r| r.info.as_ref().is_some_and(|i| i.skipped.is_some())).count();
    html! {
        <div class={classes!("inputs-bar", (*dragging).then_some("dragging"))} ondrop={on_drop} ondragover={on_over} ondragleave={on_leave} id="dropzone">
            <span class="drop-hint">{ "Drop files here, or " }</span>
            <label class="button">{ "Pick files" }
                <input id="files" class="visually-hidden" type="file" multiple=true accept=".yaml,.yml,.json" onchange={on_files} />
            </label>
            <label class="button">{ "Pick a folder" }
                <input id="folder" class="visually-hidden" type="file" multiple=true webkitdirectory=true onchange={on_folder} />
            </label>
            <button type="button" id="paste" aria-expanded={pasting.to_string()} onclick={toggle_paste}>{ "Paste" }</button>
            <button type="button" id="demo" onclick={on_demo} disabled={s.using_demo}>{ "Demo cluster" }</button>
            <span class="loaded" id="loaded">
                { if s.using_demo { "Demo cluster: " } else { "Your inputs: " } }
                { format!("{} input(s), {} object(s)", s.inputs.len(), objects) }
                if left_out > 0 { <strong class="left-out">{ format!(", {left_out} left out (see Inputs)") }</strong> }
            </span>
            if let Some(when) = s.kept.clone() {
                <span class="kept" id="kept">
                    { format!("Kept in this browser since {when} UTC (IndexedDB, never sent anywhere) ") }
                    <button type="button" id="forget" onclick={
                        let ctx = ctx.clone();
                        Callback::from(move |_| ctx.forget())
                    }>{ "Forget" }</button>
                </span>
            }
            <details class="how-to" id="how-to">
                <summary>{ "How do I get a snapshot?" }</summary>
                <p>{ "With the npm package, one command reads every kind the checks read through your own kubectl (your credentials; it says what you may not see), into one file to pick or drop here (it stays here). Put your context's name for prod:" }</p>
                <pre id="live-command" tabindex="0">{ LIVE_SNAPSHOT }</pre>
                <p>{ "Or by hand: run the first four and your distribution's where kubectl reaches the cluster, then pick or drop the files:" }</p>
                <pre id="kubectl-command" tabindex="0">{ KUBECTL_SNAPSHOT }</pre>
                <p>{ "Add your manifests (a folder of YAML) to check them against the target too. On EKS, GKE or AKS the control plane is not listed: set Current to its version." }</p>
            </details>
            if *pasting {
                <form class="paste" onsubmit={on_paste}>
                    <label for="paste-text">{ "Paste the output of kubectl get … -o yaml or -o json" }</label>
                    <textarea id="paste-text" rows="6" />
                    <button type="submit" id="paste-check">{ "Check the pasted text" }</button>
                </form>
            }
        </div>
    }
}

/// The snapshot in one command (README, "Reading the live cluster").
pub const LIVE_SNAPSHOT: &str = "npx kube-preflight snapshot --context prod -o snapshot.json";

/// The snapshot the checks read: nodes, pods (the kube-apiserver static pods among them) and what owns
/// them, budgets and volumes, every namespace; the API server's version; the API machinery a drain goes
/// through (admission webhooks, the Services and EndpointSlices behind them, APIServices, CRDs,
/// Namespaces' labels); and each distribution's own state
/// (README, "What you give it").
pub const KUBECTL_SNAPSHOT: &str = "kubectl get nodes,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs,poddisruptionbudgets,persistentvolumes,persistentvolumeclaims -A -o yaml > cluster.yaml
kubectl version -o json > version.json
kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations,validatingadmissionpolicies,validatingadmissionpolicybindings,apiservices,crds,namespaces -o yaml > api.yaml
kubectl get services,endpointslices -A -o yaml > endpoints.yaml
kubectl get configmap -n kube-system kubeadm-config -o yaml > kubeadm-config.yaml
oc get clusterversion,clusteroperators,machineconfigpools,machineconfigs -o yaml > openshift.yaml
oc get configmap -n openshift-config-managed admin-gates -o yaml > admin-gates.yaml
oc get configmap -n openshift-config admin-acks -o yaml > admin-acks.yaml
oc get clusterserviceversions -A -l '!olm.copiedFrom' -o yaml > operators.yaml
kubectl get clusters.baremetal.cluster.gke.io,nodepools.baremetal.cluster.gke.io,preflightchecks.baremetal.cluster.gke.io -A -o yaml > gke.yaml
kops get cluster,instancegroups -o yaml > kops.yaml
kubectl get events -A --field-selector involvedObject.kind=Node -o yaml > events.yaml";

#[component]
pub fn InputsView() -> Html {
    let ctx = use_ctx();
    let s = &ctx.state;
    let row = |r: &InputRow| {
        let (objects, why, config) = match &r.info {
            Some(i) => (i.objects.to_string(), i.skipped.clone(), i.config.clone()),
            None => ("…".to_owned(), None, None),
        };
        html! {
            <tr class={classes!(why.is_some().then_some("left-out"))} data-input={r.name.clone()}>
                <td><code>{ r.name.clone() }</code></td>
                <td class="num">{ mb(r.size) }{ " MB" }</td>
                <td class="num">{ objects }</td>
                <td>{ match (why, config) {
                    (Some(w), _) => html! { <span class="skip-reason">{ "Left out: " }{ w }</span> },
                    (None, Some(c)) => html! { <span class="config-note">{ format!("read as the distribution's config, {c}") }</span> },
                    (None, None) => html! { "read" },
                } }</td>
            </tr>
        }
    };
    html! {
        <div id="inputs">
            <table class="inputs">
                <caption>{ "Each input, its objects, and anything left out and why" }</caption>
                <thead><tr><th>{ "Input" }</th><th>{ "Size" }</th><th>{ "Objects" }</th><th>{ "Status" }</th></tr></thead>
                <tbody>{ for s.inputs.iter().map(row) }</tbody>
            </table>
            if let Some(r) = &s.report {
                <h3>{ "Objects by kind" }</h3>
                <table class="kinds">
                    <thead><tr><th>{ "Kind" }</th><th>{ "Objects" }</th></tr></thead>
                    <tbody>{ for r.inventory.by_kind.iter().map(|(k, n)| html! { <tr><td>{ k.clone() }</td><td class="num">{ *n }</td></tr> }) }</tbody>
                </table>
            }
        </div>
    }
}
