// Types for the `kube-preflight` npm package (CONTRACT sections 1, 3 and 4).

export type Profile = "kubeadm" | "rke" | "rke-legacy" | "kops" | "openshift" | "gke-baremetal";
export type Severity = "blocker" | "warning" | "info";
export type Via = "manifest" | "last-applied" | "managed-fields" | "helm-release" | "annotation";
export type PhaseName = "bastions" | "load-balancers" | "etcd" | "control-plane" | "workers" | "addons";

/** One input file. */
export interface InputFile {
  name: string;
  content: string | Uint8Array;
  /** Found by walking a directory: an unreadable file is then skipped with the reason instead of failing. */
  discovered?: boolean;
  /** Found but not read (a walked folder's file of another kind): listed in `inventory.skipped` with this reason. */
  skipped?: string;
}

/** A count (`2`) or a percentage (`"25%"`). */
export type IntOrPercent = number | string;

export interface UpgradeOptions {
  /** The target version, e.g. "1.29.2" (OpenShift: "4.16.3"). */
  to: string;
  /** The current control-plane version; inferred from the control-plane nodes when absent. */
  from?: string;
  profile?: Profile;
  maxUnavailableWorker?: IntOrPercent;
  maxUnavailableControlPlane?: IntOrPercent;
  maxSurge?: IntOrPercent;
  drain?: boolean;
  /** The drain deletes pods that declare no controller (`kubectl drain --force`; RKE `node_drain_input.force`). */
  drainForce?: boolean;
  /** The drain deletes emptyDir data (`--delete-emptydir-data`; RKE `node_drain_input.delete_local_data`). */
  drainDeleteLocalData?: boolean;
  /** More annotations holding the applied manifest (JSON or YAML), read for the apiVersion it was written in. */
  additionalAnnotations?: string[];
  /** Overrides of the planner's default times, in seconds. */
  timings?: { [name: string]: number };
  /** Accepted findings: each suppresses the findings it covers (kept in the report, counted apart, never gating). */
  exemptions?: Exemption[];
  /** The date exemptions expire by, "YYYY-MM-DD"; today's date in UTC when absent. */
  today?: string;
  /** A previous report (the value `check` returned, or `--format json`): the findings it holds are suppressed. */
  baseline?: Report;
  /** Families of checks left out by choice (`--skip`): listed as skipped, they do not make the run
   * incomplete. An unknown id is an options error. */
  skip?: FamilyId[];
  /** The report taken before the upgrade started (the value `check` returned, or `--format json`): a
   * snapshot taken while the upgrade runs is checked against its plan (`report.progress.since`). */
  since?: Report;
}

/** An accepted finding, or family of findings. */
export interface Exemption {
  /** A rule code ("api/deprecated"), a category ("disruption/*") or "*". */
  rule: string;
  /** The object's kind, exactly. */
  kind?: string;
  /** The object's namespace, a pattern with `*` and `?`. */
  namespace?: string;
  /** The object's name, a pattern with `*` and `?`. */
  name?: string;
  reason?: string;
  /** The last day it holds, "YYYY-MM-DD"; after it, it suppresses nothing and is a warning (suppression/expired). */
  expires?: string;
}

/** Why a finding is suppressed. */
export interface Suppressed {
  /** The `kube-preflight.io/ignore` annotation, an entry of `exemptions`, or the `baseline` report. */
  by: "annotation" | "config" | "baseline";
  reason?: string;
  /** The annotated object (`Kind namespace/name`), for `by: "annotation"`. */
  object?: string;
  /** The exemption's position in `exemptions`, for `by: "config"`. */
  exemption?: number;
  /** The exemption's last day, for `by: "config"`. */
  expires?: string;
}

export interface SeverityCounts {
  blocker: number;
  warning: number;
  info: number;
}

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

export interface Source {
  file: string;
  line?: number;
  via?: Via;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  help: string;
  object?: ObjectRef;
  source?: Source;
  hop?: string;
  data?: { [key: string]: JsonValue };
  /** Accepted by the user: not in the summary's counts, never gating. */
  suppressed?: Suppressed;
}

export interface Upgrade {
  from: string | null;
  to: string;
  profile: Profile;
  path: string[];
  /**
   * Where `from` came from: "options"; what the platform states ("kubectl version", "kube-apiserver pods",
   * "ClusterVersion", "GKE on Bare Metal Cluster", "kubeadm-config", "kOps Cluster", "RKE cluster.yml");
   * "control-plane nodes" (the oldest kubelet, a last resort); or null when unknown.
   */
  fromSource: string | null;
  /** Which object or file stated it, and what else was seen (a cluster mid-upgrade); absent when given or unknown. */
  fromDetail?: string;
  /**
   * The versions as people read them, when the target is a product version (OpenShift, GKE on Bare Metal):
   * each in the target's scheme with the Kubernetes it ships, `4.15 (Kubernetes 1.28.7+6e2789b)` (an addition).
   */
  shown?: { from?: string; to: string; path: string[] };
}

export interface Skipped {
  file: string;
  reason: string;
}

/** A deployed Helm release decoded from its release record (Secret or ConfigMap). */
export interface HelmRelease {
  name: string;
  namespace: string;
  revision: number;
  chart: string;
  /** The Secret or ConfigMap it was read from. */
  record: string;
  /** The file that record was read from. */
  file: string;
  /** Objects in its manifest (counted in `objects` and `byKind` too). */
  objects: number;
  /** The chart's `kubeVersion`, when it declares one (an addition). */
  kubeVersion?: string;
}

/** A distribution config file that is not a Kubernetes object (an RKE `cluster.yml`), read as options. */
export interface DistributionConfig {
  file: string;
  line: number;
  kind: "rke-cluster-yml";
  note: string;
}

export interface Inventory {
  files: number;
  objects: number;
  byKind: { [kind: string]: number };
  skipped: Skipped[];
  helmReleases: HelmRelease[];
  distributionConfigs: DistributionConfig[];
  /** Objects read more than once (same kind, namespace and name, or uid): counted once, every copy listed. */
  duplicates: Duplicate[];
  /** The distribution the inputs look like, and why; absent when nothing in them tells. */
  detectedProfile?: DetectedProfile;
  /** The latest time the snapshot states (its nodes' last heartbeats, RFC 3339): about when it was taken. */
  snapshotTime?: string;
  /** Lists the reader could not make (`Session.pushDenied`). */
  denied?: { kind: string; namespace?: string; reason: "forbidden" | "not-served" }[];
  /** The kinds listed from the API even when empty (a typed List such as `PodDisruptionBudgetList`, or a
   * snapshot's `lists`): a kind listed and empty stands as read, none there. */
  listed?: string[];
  /** Where and when the snapshot was taken (its `Snapshot` document, as `kube-preflight snapshot` writes it). */
  snapshot?: { file: string; line: number; takenAt?: string; context?: string; server?: string; tool?: string };
}

export interface DetectedProfile {
  /** The profile whose files or marks the inputs carry. */
  profile?: Profile;
  /** A managed service whose provider upgrades the control plane (none of the profiles). */
  managed?: "eks" | "gke" | "aks";
  /** The report was made under this profile (`rke` and `rke-legacy` count as one). */
  matches: boolean;
  /** What was seen, strongest first: `what`, and where (`file:line`). */
  evidence: { what: string; at?: string }[];
}

export interface Duplicate {
  kind: string;
  namespace?: string;
  name: string;
  /** Where each copy was read (`file:line`), the one the checks use first. */
  copies: string[];
  identical: boolean;
}

export interface Summary {
  blocker: number;
  warning: number;
  info: number;
  /** `blocked` iff a blocker; `nothing-checked` when no Kubernetes object was read (never `ready`). */
  /** `incomplete`: nothing at or above `--fail-on`, but a family of checks in scope was not read, not
   * simulated or unreadable, or the current version is unknown (CLI exit 3; `coverage` says which). */
  verdict: "blocked" | "incomplete" | "ready" | "nothing-checked";
  /** Suppressed findings, counted apart (not in the counts above). */
  suppressed: SeverityCounts;
}

export interface Phase {
  name: PhaseName;
  pool?: string;
  hop?: string;
  concurrency: number;
  nodes: string[];
  startSeconds: number;
  endSeconds: number;
}

export interface Step {
  node: string;
  phase: PhaseName;
  pool?: string;
  hop?: string;
  startSeconds: number;
  endSeconds: number;
  /** Where the step's time goes, in order, adding up to it (absent parts left out). */
  segments?: { kind: "drain" | "budget-wait" | "upgrade" | "ready"; seconds: number }[];
}

export interface Plan {
  phases: Phase[];
  steps: Step[];
  totalSeconds: number;
  /** Every time the simulation used, by name (defaults and `UpgradeOptions.timings` overrides). */
  timings: { [name: string]: number };
  /** Per pool, a node's whole step as measured: from the kubelets' cordon/uncordon events (`events`) or given
   * as `timings["pool/<name>"]` (`options`); the plan uses the median for that pool's nodes. */
  learned?: { pool: string; source: "events" | "options"; samples: number; medianSeconds: number; p90Seconds: number }[];
  /** Does the upgrade run to its end? `false` when it stops somewhere (`stops`) or was not planned. */
  complete: boolean;
  /** Where the upgrade stops or waits for ever, and why (empty when it completes). */
  stops: PlanStop[];
  /** The drain the simulation assumes, when the profile drains (an addition). */
  drain?: DrainAssumed;
  /** The nodes never simulated because of a stop, sorted (an addition; absent when none). */
  notSimulated?: string[];
  /** Pools the upgrade leaves out (a paused MachineConfigPool, a pinned node pool), with why (an addition). */
  leftOut?: { pool: string; reason: string; nodes: string[] }[];
  /**
   * When the plan stops: the same simulation with each stop's cause taken as resolved (an addition).
   * Absent when the plan completes, or when the first stop's cause cannot be lifted.
   */
  ifResolved?: IfResolved;
}

/** The drain the plan assumes (an addition). */
export interface DrainAssumed {
  /** `kubectl drain`, `RKE's drain`, `kops's drain`, ... */
  by: string;
  /** `--force`: pods with no controller are deleted, else they fail the drain. */
  force: boolean;
  /** `--delete-emptydir-data`: emptyDir pods are evicted and their data deleted, else they fail the drain. */
  deleteEmptyDirData: boolean;
  /**
   * `--ignore-daemonsets`: DaemonSet pods stay on the node, else the drain refuses a node running one
   * (only RKE's `node_drain_input.ignore_daemonsets: false` turns it off). An addition.
   */
  ignoreDaemonsets: boolean;
  /** Does it wait on PodDisruptionBudgets (the eviction API)? */
  honoursBudgets: boolean;
  /** Are the flags the options' (`drainForce`, `drainDeleteLocalData`) rather than the distribution's own? */
  flagsFromOptions: boolean;
}

/** The plan once the causes of its stops are resolved (an addition). */
export interface IfResolved {
  /** Each cause taken as resolved, in order: the rule that names it, and how. */
  lifted: { code: string; how: string }[];
  /** That run's plan (it has no `ifResolved` of its own). */
  plan: Plan;
  downtime: Downtime;
  summary: Summary;
  /** Its findings that the real report does not have: what the fix will reveal. */
  revealed: Finding[];
}

/** A place where the upgrade cannot go on by itself. */
export interface PlanStop {
  hop: string;
  phase: PhaseName;
  pool?: string;
  /** The node it stops on (a drain that never completes). */
  node?: string;
  /** When that node's step began: it stays out (cordoned, half drained) from then on. */
  startSeconds?: number;
  atSeconds: number;
  /** `waits`: retried for ever, someone must intervene; `fails`: the upgrade tool stops with an error. */
  outcome: 'waits' | 'fails';
  /** The rule whose blocker explains it. */
  code: string;
  reason: string;
  /** The nodes of that phase never upgraded because of it. */
  pending: string[];
}

export interface ComponentDowntime {
  component: string;
  expected: string;
  when: string;
}

export interface WorkloadDowntime {
  kind: string;
  namespace: string;
  name: string;
  seconds: number;
  reason: string;
  /** When no replica is Ready, in plan seconds, in order (an addition: the lengths add up to `seconds`). */
  windows: { startSeconds: number; endSeconds: number }[];
  /** The plan stops with it down: down until someone intervenes (`seconds` counts up to the plan's end). */
  untilIntervention?: boolean;
}

export interface Downtime {
  components: ComponentDowntime[];
  workloads: WorkloadDowntime[];
  /**
   * The plan stops: only what happens before the stop was simulated, and workloads on nodes it never
   * reached are not counted (an addition; absent when false). `plan.ifResolved.downtime` counts them.
   */
  partial?: boolean;
}

export interface NotRun {
  code: string;
  reason: string;
}

/** What a family of checks stands on (CONTRACT section 6). Only `checked` is ever a pass. */
export type CoverageState = "checked" | "partial" | "not-read" | "not-simulated" | "unreadable" | "skipped";

/** The ids `skip` takes (`--skip`). */
export type FamilyId =
  | "current-version" | "nodes" | "drains" | "budgets" | "admission-webhooks" | "admission-policies"
  | "aggregated-apis" | "custom-resources" | "helm-charts" | "api-removals" | "plan"
  | "openshift-gates" | "bmctl-gates" | "kops-instance-groups";

/** One family of checks: what it stands on, the kinds it reads and how many of each were read. */
export interface CoverageFamily {
  /** Stable kebab-case id (`admission-webhooks`): what `skip` takes. */
  id: FamilyId;
  state: CoverageState;
  /** Part of the question this run answers (a manifests-only run leaves the cluster's families out). */
  inScope: boolean;
  /** Why it is in this state (for `checked`, what it stood on, where worth saying). */
  reason?: string;
  family: string;
  /** Rule codes it covers; a prefix ends in `/` or `-` (`disruption/`, `admission/webhook-`). */
  codes: string[];
  kinds: { kind: string; read: number; denied?: { kind: string; namespace?: string; reason: "forbidden" | "not-served" }[] }[];
  /** `state` is `checked` (kept for readers of earlier reports). */
  checked: boolean;
  /** The reason, when not checked (kept for readers of earlier reports). */
  notChecked?: string;
}

/** What the report could see (an addition): unknown is never a pass. */
export interface Coverage {
  /** `manifests`: no Node and no object of a cluster's own state was read; the verdict is about the
   * manifests for the target, not a cluster. */
  scope: "cluster" | "manifests";
  /** The ids of the families in scope that make the run incomplete, in order. */
  incomplete: FamilyId[];
  /** The newest Kubernetes minor the API and runtime tables were reviewed through (`1.35`). */
  reviewedThrough: string;
  /** The target is past `reviewedThrough`: removals and requirements announced later are not known. */
  beyondReview: boolean;
  families: CoverageFamily[];
}

export interface Report {
  schemaVersion: 1;
  tool: { name: "kube-preflight"; version: string };
  upgrade: Upgrade;
  inventory: Inventory;
  summary: Summary;
  findings: Finding[];
  plan: Plan;
  downtime: Downtime;
  /** Checks that could not run on this input, and why. */
  notRun: NotRun[];
  /** What each family of checks read, and what it could not check. */
  coverage: Coverage;
  /** An upgrade the snapshot shows under way, node by node (and with `since`, against the plan made
   * before it started); absent when none is under way and no `since` was given. */
  progress?: Progress;
}

/** Where an upgrade under way is, read as the distribution's own status tools read it. */
export interface Progress {
  /** `stuck`: a node's update has stalled; `finished`/`not-started`: only with `since`. */
  state: "in-progress" | "stuck" | "finished" | "not-started";
  /** The headline every face shows: `upgrade to 1.30.2 in-progress: 33% (2 of 6 nodes done, ...)`. */
  summary: string;
  /** The version being upgraded to. */
  target: string;
  /** How the upgrade under way was read. */
  readFrom: string;
  /** When it started (RFC 3339), where the platform records it. */
  started?: string;
  controlPlaneDone: boolean;
  /** OpenShift: the release's cluster operators, as `oc adm upgrade status` counts them. */
  operators?: { total: number; updated: number; updating: string[]; waiting: number };
  /** Nodes done out of every node, rounded down. */
  completionPercent: number;
  counts: { total: number; done: number; inProgress: number; notStarted: number; leftOut: number; unknown: number };
  /** Stuck and in progress first, then not started, left out, unknown, done. */
  nodes: NodeProgress[];
  stuck: StuckNode[];
  /** The rest of the upgrade planned from this snapshot, when it completes. */
  remainingSeconds?: number;
  /** When the rest should end (RFC 3339): the snapshot's time plus `remainingSeconds`. */
  expectedEnd?: string;
  /** What the reading could not see. */
  caveat?: string;
  since?: SinceProgress;
}

export interface NodeProgress {
  node: string;
  pool?: string;
  stage: "done" | "in-progress" | "not-started" | "left-out" | "unknown";
  step?: "draining" | "updating" | "rebooting" | "rejoining";
  /** The version it runs, as the status tool reads it. */
  version?: string;
  detail?: string;
  /** Its window in the plan of `since` (seconds from the upgrade's start). */
  plannedStartSeconds?: number;
  plannedEndSeconds?: number;
}

export interface StuckNode {
  node: string;
  cause: string;
  /** The rule that names the cause (`progress/node-stuck` when the plan does not predict it). */
  code: string;
  /** The plan made from the same snapshot stops at this node too. */
  predicted: boolean;
}

/** The upgrade against the plan of the report taken before it started. */
export interface SinceProgress {
  plannedSeconds: number;
  elapsedSeconds?: number;
  elapsedFrom: string;
  plannedDone?: number;
  actualDone: number;
  /** Seconds behind the plan (negative: ahead; 0: on schedule). */
  behindSeconds?: number;
  /** Nodes that plan has and the snapshot does not, and the reverse. */
  gone?: string[];
  new?: string[];
  summary: string;
}

export interface RuleInfo {
  code: string;
  severity: Severity;
  title: string;
  /** Markdown: what it checks, why it matters, an example, how to fix, references. */
  docs: string;
}

/** The error `check` throws: `code` says whether an input or the options are at fault. */
export interface PreflightError extends Error {
  code: "input" | "options";
  file?: string;
  line?: number;
  column?: number;
  /** For options errors: the option at fault. */
  field?: string;
  /** `"memory"`: an input error because the checks ran out of WebAssembly memory (no file or line then);
   * `"sessions"`: 256 sessions are open at once (call `free()` on those you abandon). */
  reason?: "memory" | "sessions";
}

/** Check the files against the options. Throws a `PreflightError` for unreadable input or bad options. */
export function check(files: InputFile[], options: UpgradeOptions): Report;

/** One entry of `checkObjects`: a List page or an object as the API returns it (named by its `kind`), the same
 * with a name (`{ name, list }`: pages of one name are one input), or a list that could not be made. */
export type ObjectsEntry =
  | { [field: string]: unknown }
  | { name: string; list: { [field: string]: unknown } }
  | { denied: { kind: string; namespace?: string | null; reason: "forbidden" | "not-served" } };

/** The check of objects already held (API List pages such as `PodList`, or single objects), with no YAML or
 * JSON text in between: the same report as `check` of the same Lists as JSON text with one item a line
 * (each item's `source.line` is its position in its input). */
export function checkObjects(lists: ObjectsEntry[], options: UpgradeOptions): Report;
/**
 * Streaming input for inputs larger than memory: push chunks (split anywhere, even inside a UTF-8
 * character) of one or more named inputs, then finish. A new name ends the previous input.
 */
export class Session {
  constructor(options: UpgradeOptions);
  push(name: string, chunk: string | Uint8Array): void;
  /** Optional, before an input's first chunk: its size in bytes (a file's `size`), read only for memory (a
   * YAML document that runs to the input's end, as a `kubectl get -o yaml` List does, is then held in one
   * buffer of that size rather than one grown by doublings). A size that is not a whole number of bytes is
   * passed over; a wrong one changes no report, only the memory held (a size too large, for a List, up to
   * the size told). */
  sizeHint(name: string, bytes: number): void;
  /** End the current input now: the next chunk, whatever its name, begins another input (two inputs of one
   * name stay two; an input that had no chunk is listed as empty). */
  endInput(): void;
  /** A list you could not make: the API refused it to the user (`"forbidden"`, a 403) or the cluster does not
   * serve the kind (`"not-served"`, a 404); `namespace` `null` for a list across the cluster. The report's
   * `inventory.denied` lists them and `coverage` says what each family could not see: "not visible to you"
   * (not read, or partial when only some namespaces were refused), or "this cluster serves no ..." (nothing
   * to check). */
  pushDenied(kind: string, namespace: string | null, reason: "forbidden" | "not-served"): void;
  /** A page of objects as the API returned them (a List such as `PodList`, or one object), with no text in
   * between; pages pushed under one `name` (default: the List's `kind`) are one input. */
  pushObjects(list: { [field: string]: unknown }, name?: string): void;
  /** The report; releases what the session holds (it cannot be used again). */
  finish(): Report;
  /** Release what the session holds at once (an abandoned session); safe to call twice. */
  free(): void;
  /** `[bytes, objects]` read so far (`[]` once finished). */
  progress(): number[];
}

/** Every rule's documentation. */
/** What `checkInWorker` reads an input from: read chunk by chunk, never whole. */
export type InputContent =
  | string
  | Uint8Array
  | ArrayBuffer
  | ArrayBufferView
  | Blob
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

export interface CheckInWorkerOptions {
  /** Ends the worker at once; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** After each chunk: bytes handed over so far, objects read so far, the input being read. */
  onProgress?: (progress: { bytes: number; objects: number; input: string }) => void;
  /** Browsers: makes the module Worker running `kube-preflight/worker` (for bundlers that do not see the default one). */
  worker?: () => WorkerLike;
}

/** What `worker` makes: a DOM `Worker` (`new Worker(url, { type: 'module' })`); its handlers are set by `checkInWorker`. */
export interface WorkerLike {
  postMessage(message: unknown, transfer: unknown[]): void;
  terminate(): void;
  onmessage: unknown;
  onerror: unknown;
  onmessageerror: unknown;
}

/** The same check in a worker (a module Worker in browsers, a worker_thread in Node), leaving the page or the event loop free. */
export function checkInWorker(
  inputs: Array<
    | { name: string; content: InputContent }
    | (Blob & { name: string })
    | { name: string; list: { [field: string]: unknown } }
    | { denied: { kind: string; namespace?: string | null; reason: "forbidden" | "not-served" } }
  >,
  options: UpgradeOptions,
  opts?: CheckInWorkerOptions,
): Promise<Report>;

export function rules(): RuleInfo[];
/** The package's version. */
export function version(): string;
/** Browsers: load the wasm first. Node: a no-op. */
export function init(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<unknown>;

declare const _default: typeof init;
export default _default;
