//! Making a [`Solver`]: the pattern databases its [`Plan`] wants are provided here (loaded,
//! or built when the caller's [`Building`] policy allows), then the plan decides the method.
//! Every constructor, the CLI, `compare`, the web server, Python and the benchmarks come here,
//! so they cannot drift apart.
//!
//! Which databases: a partition the caller names is loaded or built; otherwise the strongest
//! partition already cached for the shape is loaded (see [`Partition::candidates`]), and when
//! none is, the shape's default ([`Partition::default_for`]) is built if the policy allows.
//! The near-optimal solver (`near`) uses the strongest cached set too, but builds only quick
//! ones ([`Partition::quick_for`]).
//!
//! A named partition is never dropped without a word: with an explicit `astar`, `idastar` or
//! `greedy` and no heuristic it makes `pdb` the heuristic; for boards that `auto` answers
//! without databases (a complete table, linear conflict below 16 cells) a
//! [`PdbEvent::NotUsed`] says so, and [`SolverBuilder::unused_options`] names the methods
//! that use no heuristic.

use crate::board::{Board, Shape};
use crate::heuristic::HeuristicKind;
use crate::heuristic::pdb::PdbError;
use crate::heuristic::pdb_file::PdbCache;
use crate::heuristic::pdb_set::{Building, Partition, PdbEvent, PdbSet};
use crate::near::Effort;
use crate::search::Limits;
use crate::search::eval::MAX_CELLS;
use crate::search::move_pruning::MovePruner;
use crate::solver::plan::Provided;
use crate::solver::{Algorithm, Plan, SolveError, Solver, Use};
use crate::space::SweepEvent;
use crate::symmetry::Canonical;
use crate::table::Table;
use std::sync::Arc;
use std::time::Instant;

/// Receives what provisioning does (loads, builds, build progress), e.g. to draw a progress bar.
pub type PdbEvents = Arc<dyn Fn(&PdbEvent) + Send + Sync>;

/// Where pattern databases come from.
#[derive(Clone, Default)]
pub struct PdbSource {
    /// The cache directory; `None` builds in memory only.
    pub cache: Option<PdbCache>,
    /// A partition by name or spec (see [`Partition::parse`]); `None` lets the rule choose.
    pub partition: Option<String>,
    /// Whether databases that are not cached may be built.
    pub build: Building,
    /// Reports of loads, builds and build progress.
    pub events: Option<PdbEvents>,
    /// Set to give up a build in progress (after its current layer), or a wait for another
    /// process's build of the same database: a Ctrl-C.
    pub stop: Option<Arc<std::sync::atomic::AtomicBool>>,
}

impl std::fmt::Debug for PdbSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PdbSource")
            .field("cache", &self.cache)
            .field("partition", &self.partition)
            .field("build", &self.build)
            .finish_non_exhaustive()
    }
}

impl PdbSource {
    /// The standard cache directory (see [`PdbCache::standard`]) with `user`'s building
    /// and loading policies ([`Use::building`], [`Use::loading`]), no partition named, no
    /// event receiver.
    pub fn standard(user: Use) -> PdbSource {
        PdbSource {
            cache: Some(PdbCache::standard().loading(user.loading())),
            partition: None,
            build: user.building(),
            events: None,
            stop: None,
        }
    }

    fn event(&self, e: PdbEvent) {
        if let Some(events) = &self.events {
            events(&e);
        }
    }

    /// The complete table of a 12-cell board toward `goal` (any goal with the same
    /// blank cell shares one file): loaded from the cache, else built (seconds, with progress
    /// events) and saved when the policy allows anything to be built. `None` when it is not
    /// cached and may not be built; a damaged file is reported and rebuilt.
    pub fn table(&self, goal: &Board) -> Option<Arc<Table>> {
        let shape = goal.shape();
        if !Table::supports(shape) || Table::is_quick(shape) {
            return None;
        }
        let path = self.cache.as_ref().map(|c| c.table_path(goal));
        let cached = |announce: bool| -> Option<Table> {
            let path = path.as_ref().filter(|p| p.exists())?;
            match Table::load(path, goal) {
                Ok(t) => {
                    self.event(PdbEvent::Loaded(path.clone()));
                    Some(t)
                }
                Err(e) => {
                    if announce {
                        self.event(PdbEvent::Rebuilding(path.clone(), e.to_string()));
                    } else {
                        self.event(PdbEvent::TableUnavailable(format!(
                            "{e}; {shape} boards are searched instead"
                        )));
                    }
                    None
                }
            }
        };
        if let Some(t) = cached(self.build != Building::Never) {
            return Some(Arc::new(t));
        }
        if self.build == Building::Never {
            return None;
        }
        // Another process sharing the cache may be building it: wait, then load its file
        // (or give up, stopped while waiting).
        let _lock = match &self.cache {
            Some(c) => c
                .lock_file(&c.table_path(goal), self.stop.as_deref(), &mut || {})
                .ok()?,
            None => None,
        };
        if let Some(t) = cached(false) {
            return Some(Arc::new(t));
        }
        let states = crate::space::SpaceIndex::for_goal(goal).map_or(0, |i| i.states());
        self.event(PdbEvent::TablePlan {
            shape,
            states,
            bytes: Table::bytes_for(shape).unwrap_or(0),
        });
        let started = Instant::now();
        let progress = |e: SweepEvent| {
            if let SweepEvent::Layer {
                distance, known, ..
            } = e
            {
                self.event(PdbEvent::Layer {
                    layer: distance,
                    filled: known,
                    total: states,
                });
            }
        };
        let table = Table::build_with(goal, &progress, self.stop.as_deref()).ok()?;
        if let Some(path) = &path
            && let Err(e) = table.save(path)
        {
            self.event(PdbEvent::NotSaved(path.clone(), e.to_string()));
        }
        self.event(PdbEvent::TableBuilt {
            shape,
            seconds: started.elapsed().as_secs_f64(),
        });
        Some(Arc::new(table))
    }

    /// The complete tables a long-running service keeps loaded: those of the 12-cell
    /// boards (toward the standard goal) that are cached; nothing is built.
    pub fn tables_for_service(&self) -> Vec<Arc<Table>> {
        let source = PdbSource {
            build: Building::Never,
            ..self.clone()
        };
        [(4, 3), (3, 4), (6, 2), (2, 6)]
            .into_iter()
            .filter_map(|(w, h)| Shape::new(w, h).ok())
            .filter_map(|shape| source.table(&Board::goal(shape)))
            .collect()
    }

    /// The databases for `goal` (any goal: they are made for its canonical form): the named
    /// partition, else the strongest cached one that loads, else the default built when the
    /// policy allows. `Ok(None)` when none of those is available (or the board is too large).
    pub fn provide(&self, goal: &Board) -> Result<Option<Arc<PdbSet>>, PdbError> {
        let shape = goal.shape();
        let canonical = Canonical::of(goal).goal;
        if let Some(spec) = &self.partition {
            let partition = Partition::parse(spec, shape)?;
            return self.load(&canonical, partition).map(Some);
        }
        let candidates = Partition::candidates(shape);
        let cached = candidates.iter().filter(|p| {
            self.cache.as_ref().is_some_and(|c| {
                p.patterns
                    .iter()
                    .all(|t| c.path_for(&canonical, t).exists())
            })
        });
        let default = Partition::default_for(shape).filter(|p| self.build.allows(p, shape));
        let mut seen = Vec::new();
        for partition in cached.cloned().chain(default) {
            if seen.contains(&partition.name) {
                continue;
            }
            seen.push(partition.name.clone());
            let weaker = candidates.first().is_some_and(|best| best != &partition);
            let using = partition.name.clone();
            match self.load(&canonical, partition) {
                Ok(set) => {
                    // Said once the set is in hand (loaded, or built after its plan).
                    if weaker {
                        self.event(PdbEvent::Weaker {
                            using,
                            stronger: candidates[0].name.clone(),
                        });
                    }
                    return Ok(Some(set));
                }
                Err(e @ (PdbError::NotCached(_) | PdbError::Corrupt { .. })) => {
                    self.event(PdbEvent::Unavailable(e.to_string()))
                }
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }

    /// Loads `partition`'s databases toward the canonical goal, building what the policy allows.
    fn load(&self, canonical: &Board, partition: Partition) -> Result<Arc<PdbSet>, PdbError> {
        let shape = canonical.shape();
        // Databases are for the IDA* engine: its move pruning is made meanwhile, and waited
        // for once they are in hand.
        MovePruner::prepare(shape);
        let progress = |layer: u32, _states: u64, filled: u64, total: u64| {
            self.event(PdbEvent::Layer {
                layer,
                filled,
                total,
            })
        };
        let mut events = |e: PdbEvent| self.event(e);
        let may_build = self.build.allows(&partition, shape);
        let set = PdbSet::load_or_build(
            canonical,
            partition,
            self.cache.as_ref(),
            may_build,
            &progress,
            &mut events,
            self.stop.as_deref(),
        )?;
        MovePruner::for_shape(shape);
        Ok(Arc::new(set))
    }

    /// The databases a long-running service (the web server) keeps loaded, decided here once:
    /// for every shape of 16 to 32 cells, the named partition where it fits the shape, else
    /// the strongest set cached. Only 4×4's small databases are built at start-up (seconds,
    /// when the policy allows); every other set must be cached (`npuzzle pdb build --size
    /// WxH`). A named partition that fits no board, or is cached for none, is an error. The
    /// engine's positional tables are made at once for the sets that take them.
    pub fn for_service(&self) -> Result<Vec<Arc<PdbSet>>, PdbError> {
        let shapes: Vec<Shape> = (2..=MAX_CELLS / 2)
            .flat_map(|w| (2..=MAX_CELLS / 2).map(move |h| (w, h)))
            .filter(|&(w, h)| (16..=MAX_CELLS).contains(&(w * h)))
            .filter_map(|(w, h)| Shape::new(w, h).ok())
            .collect();
        // Start-up builds only 4×4's small databases; every other set must be cached.
        let policy = |shape: Shape| PdbSource {
            build: if shape.width() == 4 && shape.height() == 4 {
                self.build.min(Building::Quick)
            } else {
                Building::Never
            },
            ..self.clone()
        };
        let mut sets = Vec::new();
        if let Some(spec) = &self.partition {
            let fitting: Vec<Shape> = shapes
                .iter()
                .copied()
                .filter(|&s| Partition::parse(spec, s).is_ok())
                .collect();
            for &shape in &fitting {
                match policy(shape).provide(&Board::goal(shape)) {
                    Ok(set) => sets.extend(set),
                    Err(PdbError::NotCached(_)) => {}
                    Err(e) => return Err(e),
                }
            }
            let shown = crate::heuristic::pdb_set::shown(spec, 64);
            if sets.is_empty() && !fitting.is_empty() {
                return Err(PdbError::NotCached(format!(
                    "the `{shown}` databases are not cached for any board; `npuzzle pdb build --partition {shown} --size WxH` builds them (a server builds only 4x4's small ones at start-up)"
                )));
            }
            if sets.is_empty() {
                let why = Shape::new(4, 4)
                    .map_err(|e| e.to_string())
                    .and_then(|four| Partition::parse(spec, four).map_err(|e| e.to_string()))
                    .err()
                    .unwrap_or_default();
                return Err(PdbError::BadPattern(format!(
                    "`{shown}` fits no board of 16 to {MAX_CELLS} cells (on 4x4: {why})"
                )));
            }
            return Ok(ready(sets));
        }
        for shape in shapes {
            sets.extend(policy(shape).provide(&Board::goal(shape))?);
        }
        Ok(ready(sets))
    }
}

/// `sets` with the engine's positional tables made now (where they suit: 5×5's 6-tile
/// databases, 1–2 s and 2.3 GB once with their zero-aware tables), so that no request of a
/// long-running service pays for them.
fn ready(sets: Vec<Arc<PdbSet>>) -> Vec<Arc<PdbSet>> {
    for s in &sets {
        s.prepare_layout();
    }
    sets
}

/// Builds a [`Solver`] for one goal: method, heuristic, limits and where databases come from.
#[derive(Clone, Debug)]
pub struct SolverBuilder {
    goal: Board,
    algorithm: Algorithm,
    heuristic: Option<HeuristicKind>,
    limits: Limits,
    source: PdbSource,
    loaded: Vec<Arc<PdbSet>>,
    tables: Vec<Arc<Table>>,
    fallback: bool,
    single_thread: bool,
    effort: Effort,
}

impl SolverBuilder {
    /// The `auto` method toward `goal`, no limits, no database source.
    pub fn new(goal: Board) -> SolverBuilder {
        SolverBuilder {
            goal,
            algorithm: Algorithm::Auto,
            heuristic: None,
            limits: Limits::default(),
            source: PdbSource::default(),
            loaded: Vec::new(),
            tables: Vec::new(),
            fallback: false,
            single_thread: false,
            effort: Effort::default(),
        }
    }

    /// Another goal (the rest of the settings kept).
    pub fn goal(mut self, goal: Board) -> SolverBuilder {
        self.goal = goal;
        self
    }

    /// The limits every search of the solver will run under.
    pub fn limits_ref(&self) -> &Limits {
        &self.limits
    }

    /// The method.
    pub fn algorithm(mut self, algorithm: Algorithm) -> SolverBuilder {
        self.algorithm = algorithm;
        self
    }

    /// The heuristic; `None` lets the rule choose (databases where they apply, else linear
    /// conflict).
    pub fn heuristic(mut self, heuristic: Option<HeuristicKind>) -> SolverBuilder {
        self.heuristic = heuristic;
        self
    }

    /// Limits for every search of the solver.
    pub fn limits(mut self, limits: Limits) -> SolverBuilder {
        self.limits = limits;
        self
    }

    /// Gives up building databases (after the current layer), or waiting for another
    /// process's build, once `flag` is set.
    pub fn stop_builds(mut self, flag: Arc<std::sync::atomic::AtomicBool>) -> SolverBuilder {
        self.source.stop = Some(flag);
        self
    }

    /// Where to load or build databases.
    pub fn pdb_source(mut self, source: PdbSource) -> SolverBuilder {
        self.source = source;
        self
    }

    /// A database set already loaded, used when it serves the goal (before the source).
    pub fn pdb_set(mut self, set: Arc<PdbSet>) -> SolverBuilder {
        self.loaded.push(set);
        self
    }

    /// A complete table already loaded, used (renamed for the goal) when it serves the goal:
    /// same size and blank cell; before the source.
    pub fn table(mut self, table: Arc<Table>) -> SolverBuilder {
        self.tables.push(table);
        self
    }

    /// Answer with the near-optimal solver (labelled not optimal) when a search hits a limit
    /// (see [`Solver::with_fallback`]).
    pub fn fallback(mut self, fallback: bool) -> SolverBuilder {
        self.fallback = fallback;
        self
    }

    /// How long the near-optimal solver may work for a shorter answer (see [`Effort`]).
    pub fn effort(mut self, effort: Effort) -> SolverBuilder {
        self.effort = effort;
        self
    }

    /// Keep every search on one core (see [`Solver::with_single_thread`]).
    pub fn single_thread(mut self, single: bool) -> SolverBuilder {
        self.single_thread = single;
        self
    }

    /// The options given that no solver of these settings will use, each as a sentence for
    /// people (a named heuristic or partition with a method that searches without a
    /// heuristic; a named partition with a heuristic other than `pdb`; an effort other than the
    /// least when the near-optimal solver never runs), so that every front end can say so.
    pub fn unused_options(&self) -> Vec<String> {
        let mut unused = Vec::new();
        let without_heuristic = !matches!(self.algorithm, Algorithm::Auto | Algorithm::Near)
            && !self.algorithm.uses_heuristic();
        // One sentence for what a method without a heuristic leaves unused.
        let named: Vec<String> = [
            self.heuristic
                .map(|h| format!("the heuristic {}", h.name())),
            self.source
                .partition
                .as_ref()
                .map(|p| format!("the partition {p}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        if without_heuristic && !named.is_empty() {
            unused.push(format!(
                "{}: the algorithm {} searches without a heuristic",
                not_used(&named),
                self.algorithm.name()
            ));
        } else if let (Some(partition), Some(h)) = (&self.source.partition, self.heuristic)
            && h != HeuristicKind::Pdb
        {
            unused.push(format!(
                "the partition {partition} is not used: the heuristic {} searches without pattern databases",
                h.name()
            ));
        }
        let near_runs =
            self.fallback || matches!(self.algorithm, Algorithm::Near | Algorithm::Auto);
        if self.effort != Effort::default() && !near_runs {
            unused.push(format!(
                "effort {} is not used: the algorithm {} never runs the near-optimal solver (unless a fallback is asked for searches that hit a limit)",
                self.effort.level(),
                self.algorithm.name()
            ));
        }
        unused
    }

    /// Whether a solver of these settings for boards of `shape` wants pattern databases or a
    /// cached complete table (see [`Plan::wants_databases`], [`Plan::wants_table`]): making
    /// it may load or build them.
    pub fn wants_provisions(&self, shape: Shape) -> bool {
        Plan::wants_databases(shape, self.algorithm, self.asked_heuristic())
            || Plan::wants_table(shape, self.algorithm)
    }

    /// The plan for boards of `shape` without pattern databases (what would run for them
    /// before any database is loaded).
    pub fn plan_for(&self, shape: Shape) -> Result<Plan, SolveError> {
        Plan::decide(
            shape,
            self.algorithm,
            self.asked_heuristic(),
            Provided::default(),
        )
    }

    /// The heuristic asked for: the one named, else `pdb` when a partition is named for a
    /// method given explicitly that searches with a heuristic (`idastar`, `astar`, `greedy`):
    /// naming the databases asks for them. `auto` and `near` take a named partition as the
    /// one to use wherever they use databases.
    fn asked_heuristic(&self) -> Option<HeuristicKind> {
        let explicit_search = self.algorithm.uses_heuristic() && self.algorithm != Algorithm::Near;
        self.heuristic.or_else(|| {
            (self.source.partition.is_some() && explicit_search).then_some(HeuristicKind::Pdb)
        })
    }

    /// Makes the solver: the [`Plan`] decides method and heuristic, after the databases it
    /// wants are loaded or built as the source's policy allows. An explicit `pdb` heuristic
    /// or a named partition without usable databases is an error; `auto` does without them.
    pub fn build(self) -> Result<Solver, SolveError> {
        let shape = self.goal.shape();
        let heuristic = self.asked_heuristic();
        let table = if Plan::wants_table(shape, self.algorithm) {
            let given = self.tables.iter().find_map(|t| {
                if t.goal() == &self.goal {
                    Some(t.clone())
                } else {
                    t.renamed(&self.goal).map(Arc::new)
                }
            });
            given.or_else(|| self.source.table(&self.goal))
        } else {
            None
        };
        // `auto` answers from a 12-cell board's table when it has it: no databases for it.
        let table_answers = self.algorithm == Algorithm::Auto && table.is_some();
        let set = if Plan::wants_databases(shape, self.algorithm, heuristic) && !table_answers {
            self.databases()?
        } else {
            if let Some(partition) = &self.source.partition
                && heuristic.is_none()
                && shape.cells() > MAX_CELLS
            {
                self.source.event(PdbEvent::Unavailable(format!(
                    "partition {partition} does not fit {shape} boards: they serve boards of at most {MAX_CELLS} cells"
                )));
            }
            None
        };
        let provided = Provided {
            databases: set.is_some(),
            table: table.is_some(),
        };
        let plan = Plan::decide(shape, self.algorithm, heuristic, provided).map_err(|e| {
            match (e, &self.source.partition) {
                // Asked for by naming the partition, not the heuristic: say so.
                (SolveError::NoDatabases(why), Some(partition)) if self.heuristic.is_none() => {
                    SolveError::NoDatabases(format!(
                        "{why} (the partition {partition}, named for {}, makes pdb its heuristic)",
                        self.algorithm.name()
                    ))
                }
                (e, _) => e,
            }
        })?;
        self.say_if_partition_unused(shape, &plan);
        Solver::assemble(self.goal, self.algorithm, plan, (set, table), self.limits).map(|s| {
            s.with_fallback(self.fallback)
                .with_single_thread(self.single_thread)
                .with_effort(self.effort)
        })
    }

    /// Tells the source's events when a named partition or heuristic is not used for boards
    /// of `shape` that `auto` or `near` answers another way ([`PdbEvent::NotUsed`]): the
    /// complete table, or linear conflict below 16 cells (past 32 cells
    /// [`SolverBuilder::build`] says so itself), worded from the plan that answers them.
    fn say_if_partition_unused(&self, shape: Shape, plan: &Plan) {
        if !matches!(self.algorithm, Algorithm::Auto | Algorithm::Near) || shape.cells() > MAX_CELLS
        {
            return;
        }
        // The partition is named where it is not used; beside another heuristic on a board the
        // table answers, `unused_options` has said so already.
        let says_partition = if plan.method == Algorithm::Table {
            self.heuristic.is_none_or(|h| h == HeuristicKind::Pdb)
        } else {
            self.heuristic.is_none() && !Plan::wants_databases(shape, self.algorithm, None)
        };
        let partition = self.source.partition.as_ref().filter(|_| says_partition);
        let mut named: Vec<String> = partition
            .map(|p| format!("the partition {p}"))
            .into_iter()
            .collect();
        if plan.method == Algorithm::Table {
            named.extend(
                self.heuristic
                    .map(|h| format!("the heuristic {}", h.name())),
            );
        }
        if named.is_empty() {
            return;
        }
        let answered_by = match plan.heuristic {
            Some(h) => format!("{}+{}", plan.method.name(), h.name()),
            None if plan.method == Algorithm::Table => "the complete table".into(),
            None => plan.method.name().to_string(),
        };
        let fits = partition.is_none_or(|p| Partition::parse(p, shape).is_ok());
        let instead = match (plan.method == Algorithm::Table, fits) {
            (_, false) => "the partition does not fit them either",
            (true, true) => "an explicit method such as idastar searches with what was named",
            (false, true) => "the pdb heuristic searches with the partition",
        };
        self.source.event(PdbEvent::NotUsed(format!(
            "{} for {shape} boards: {answered_by} answers them ({instead})",
            not_used(&named)
        )));
    }

    /// The databases for this solver's goal: one given that serves it, else from the
    /// source. The near-optimal solver must answer quickly: it builds only small databases,
    /// and without a cached set it builds the quick one for the shape. Failing to provide
    /// them is an error only when they were asked for by name or heuristic.
    fn databases(&self) -> Result<Option<Arc<PdbSet>>, SolveError> {
        let explicit = self.asked_heuristic() == Some(HeuristicKind::Pdb);
        let canonical = Canonical::of(&self.goal).goal;
        let named = self.source.partition.as_deref();
        let given = self.loaded.iter().find(|s| {
            (s.goal() == &canonical || s.goal() == &self.goal)
                && named.is_none_or(|n| s.partition().name == n)
        });
        if let Some(set) = given {
            return Ok(Some(set.clone()));
        }
        // Databases given for this board size but another goal (and nowhere to find others).
        let same_size = self
            .loaded
            .iter()
            .find(|s| s.goal().shape() == self.goal.shape());
        if let Some(s) = same_size.filter(|_| explicit && named.is_none())
            && self.source.cache.is_none()
        {
            return Err(SolveError::WrongDatabases {
                databases: s.goal().to_judge_line(),
                goal: self.goal.to_judge_line(),
            });
        }
        let near = self.algorithm == Algorithm::Near && !explicit && named.is_none();
        let source = PdbSource {
            build: if near {
                self.source.build.min(Building::Quick)
            } else {
                self.source.build
            },
            ..self.source.clone()
        };
        let provided = source.provide(&self.goal).and_then(|set| match set {
            None if near => Partition::quick_for(self.goal.shape())
                .filter(|p| source.build.allows(p, self.goal.shape()))
                .map(|p| source.load(&canonical, p))
                .transpose(),
            set => Ok(set),
        });
        match provided {
            Ok(set) => Ok(set),
            Err(e) if explicit || named.is_some() => Err(e.into()),
            // Given up for the caller's stop flag: nothing to tell, the caller is stopping.
            Err(PdbError::Stopped) => Ok(None),
            Err(e) => {
                self.source.event(PdbEvent::Unavailable(e.to_string()));
                Ok(None)
            }
        }
    }
}

/// "A is not used" or "A and B are not used", for the options `named`.
fn not_used(named: &[String]) -> String {
    let verb = if named.len() > 1 { "are" } else { "is" };
    format!("{} {verb} not used", named.join(" and "))
}
