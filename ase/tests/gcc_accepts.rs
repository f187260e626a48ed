//! What gcc accepts, `ase lower` reads: generated programs combine
//! constructs of real concurrent C (designated initialisers, compound and
//! string literals, bit-fields, unions, struct values, `typeof`, statement
//! expressions, `asm` barriers, floating point, C11 and POSIX threads,
//! atomics, the C library, functions without a body, ...), each program
//! a random selection of them with random constants. Every program that
//! `gcc -fsyntax-only` accepts must be lowered: `ase lower` may give up
//! where a construct is reached (a warning), never refuse the file.
//!
//! ```text
//! ASE_GCC_ACCEPTS_PROGRAMS=500 cargo test --release --test gcc_accepts -- --nocapture
//! ```

mod common;

use common::ASE;

use std::path::Path;
use std::process::Command;

use engine::generate::Rng;

/// Programs generated unless `ASE_GCC_ACCEPTS_PROGRAMS` says otherwise;
/// `ASE_GCC_ACCEPTS_SEED` picks other programs.
const PROGRAMS: u64 = 40;
/// Constructs per program.
const PER_PROGRAM: usize = 6;

/// A construct: file-scope declarations and statements of `main`, with
/// `@` standing for the construct's unique suffix and `#` for a small
/// random constant.
struct Construct {
    decls: &'static str,
    stmts: &'static str,
}

const fn c(decls: &'static str, stmts: &'static str) -> Construct {
    Construct { decls, stmts }
}

const CONSTRUCTS: &[Construct] = &[
    c(
        "struct p@ { int x; int y[3]; } g@ = { .y = {[1] = #}, .x = 1 };",
        "g@.x += g@.y[1];",
    ),
    c(
        "struct q@ { int x; int y; };",
        "{ struct q@ *p = &(struct q@){ .y = #, .x = 2 }; p->x += p->y; }",
    ),
    c(
        "const char *s@ = \"abc\"; char t@[] = \"xyz\"; int n@;",
        "if (s@[1] == 'b' && t@[0] == 'x') n@ += #;",
    ),
    c(
        "struct b@ { unsigned a : 3; unsigned b : 5; int c; } v@;",
        "v@.a = #; v@.c = v@.a + 1;",
    ),
    c(
        "union u@ { int i; unsigned char c[4]; } w@;",
        "w@.i = #; w@.c[0] = 1;",
    ),
    c(
        "struct m@ { int k; union { int n; struct { short a, b; } p; }; } q@ = { .k = 1, .p = { #, 2 } };",
        "{ struct m@ r = q@; r.n = r.p.a + #; q@ = r; union { long l; char c; } z = { .c = 3 }; q@.k = z.c; }",
    ),
    c(
        "struct s@ { int a, b; } x@, y@ = { #, 2 };\nstruct s@ mk@(int v) { struct s@ r = { v, v + 1 }; return r; }",
        "{ struct s@ *p = &x@; *p = y@; x@ = mk@(#); y@.a = mk@(1).b; }",
    ),
    c(
        "int arr@[sizeof(long) * 2 + #]; enum e@ { A@ = #, B@ = A@ * 3 }; int tab@[B@ + 1];",
        "arr@[0] = sizeof arr@; tab@[A@] = B@;",
    ),
    c(
        "int count@(void) { static int k = #; return ++k; }",
        "count@(); count@();",
    ),
    c(
        "_Static_assert(sizeof(int) == 4, \"int\"); int h@;",
        "if (__builtin_expect(h@ == #, 0)) h@ = 0; if (h@ > 1000) __builtin_unreachable();",
    ),
    c(
        "int z@ = #;",
        "{ typeof(z@) t = 1; __typeof__(t) u = t + 1; z@ = ({ int q = u; q * #; }); }",
    ),
    c(
        "int f@;",
        "__asm__ __volatile__(\"\" ::: \"memory\"); f@ = #; __asm__ __volatile__(\"mfence\" ::: \"memory\");",
    ),
    c(
        "double d@ = 1.5; float e@ = #.25f; long double l@;",
        "d@ = d@ * 2 + e@; if (d@ > 1.0) e@ = (float)d@; printf(\"%f %Lf\\n\", d@, l@);",
    ),
    c(
        "int ext@(int); void reg@(void (*)(int), int);",
        "{ int r = ext@(#); if (r > 0) reg@(0, r); }",
    ),
    c(
        "int m@;",
        "m@ = abs(-#) + rand() % 3; srand(#); m@ += (int)labs(-2L);",
    ),
    c(
        "pthread_mutex_t mx@ = PTHREAD_MUTEX_INITIALIZER; int c@;\nvoid *th@(void *a) { pthread_mutex_lock(&mx@); c@ += #; pthread_mutex_unlock(&mx@); return a; }",
        "{ pthread_t t; pthread_create(&t, 0, th@, 0); pthread_join(t, 0); }",
    ),
    c(
        "int k@;\nint tf@(void *a) { k@ = #; return 0; }",
        "{ thrd_t t; if (thrd_create(&t, tf@, 0) == thrd_success) thrd_join(t, 0); }",
    ),
    c(
        "sem_t sem@; int sv@;",
        "sem_init(&sem@, 0, 1); sem_wait(&sem@); sv@ = #; sem_post(&sem@);",
    ),
    c(
        "pthread_once_t once@ = PTHREAD_ONCE_INIT; int o@;\nvoid init@(void) { o@ = #; }",
        "pthread_once(&once@, init@); pthread_once(&once@, init@);",
    ),
    c(
        "int cl@;\nvoid undo@(void *a) { cl@ = 0; }\nvoid *cw@(void *a) { pthread_cleanup_push(undo@, 0); cl@ = #; pthread_cleanup_pop(1); return 0; }",
        "{ pthread_t t; pthread_create(&t, 0, cw@, 0); pthread_join(t, 0); }",
    ),
    c(
        "_Atomic int at@; atomic_int ai@;",
        "at@++; atomic_fetch_add(&ai@, #); atomic_store(&ai@, atomic_load(&at@));",
    ),
    c(
        "int sy@;",
        "__sync_fetch_and_add(&sy@, #); __atomic_store_n(&sy@, __atomic_load_n(&sy@, __ATOMIC_SEQ_CST), __ATOMIC_RELEASE);",
    ),
    c(
        "void *xm@(unsigned long n) { return malloc(n); }",
        "{ int *p = xm@(sizeof(int) * #); if (p) { p[0] = 2; free(p); } }",
    ),
    c(
        "char buf@[16]; int len@;",
        "strcpy(buf@, \"hi\"); len@ = strlen(buf@) + (strcmp(buf@, \"hi\") == 0); memset(buf@, 0, sizeof buf@);",
    ),
    c(
        "int vl@;",
        "{ int n = #; int v[n + 1]; v[0] = n; vl@ = v[0]; }",
    ),
    c(
        "int sw@;",
        "switch (sw@ % 3) { case 0: sw@ += #; break; case 1: sw@--; /* fall through */ default: sw@ = 0; } do { sw@++; } while (sw@ < #); goto end@; end@: ;",
    ),
    c(
        "int inc@(int x) { return x + #; } int (*fp@)(int) = inc@;",
        "{ int r = fp@(1); r = (*fp@)(r); }",
    ),
    c(
        "extern int __VERIFIER_nondet_int(void); extern unsigned char __VERIFIER_nondet_uchar(void); int nd@;",
        "nd@ = __VERIFIER_nondet_int() % # + __VERIFIER_nondet_uchar();",
    ),
    c(
        "unsigned long long ul@ = #ULL; signed char sc@;",
        "ul@ = (ul@ << 3) ^ (unsigned)-1; sc@ = (signed char)ul@; ul@ = ul@ / 3 + (sc@ < 0 ? 1 : 2), ul@++;",
    ),
    c(
        "int grid@[3][4] = { [1][2] = #, [2] = { 1, 2 } };",
        "grid@[0][1] = grid@[1][2] * 2;",
    ),
    c(
        "struct in@ { int a[2]; struct { int u, v; } w; } ni@[2] = { [1].w.v = #, [0].a = { 1 } };",
        "ni@[0].w = ni@[1].w; ni@[1].a[1] = ni@[0].w.u;",
    ),
    c(
        "pthread_rwlock_t rw@ = PTHREAD_RWLOCK_INITIALIZER; pthread_spinlock_t sp@; int rv@;",
        "pthread_rwlock_rdlock(&rw@); rv@ = #; pthread_rwlock_unlock(&rw@); pthread_spin_init(&sp@, 0); pthread_spin_lock(&sp@); pthread_spin_unlock(&sp@);",
    ),
    c(
        "pthread_key_t key@; int kv@;",
        "pthread_key_create(&key@, 0); pthread_setspecific(key@, &kv@); kv@ = pthread_getspecific(key@) != 0;",
    ),
    c(
        "pthread_cond_t cv@ = PTHREAD_COND_INITIALIZER; pthread_mutex_t cm@ = PTHREAD_MUTEX_INITIALIZER; int ready@;",
        "pthread_mutex_lock(&cm@); ready@ = #; pthread_cond_broadcast(&cv@); pthread_mutex_unlock(&cm@);",
    ),
    c(
        "int sl@;",
        "usleep(#); sched_yield(); sl@ = (int)time(0) >= 0; puts(\"ok\");",
    ),
    c(
        "int sc2@; int d2@;",
        "if (sscanf(\"4 2.5\", \"%d %*f\", &d2@) == 1) sc2@ = d2@ + #;",
    ),
    c(
        "struct node@ { int val; struct node@ *next; };",
        "{ struct node@ *h = calloc(1, sizeof *h); if (h) { h->next = malloc(sizeof(struct node@)); if (h->next) { h->next->val = #; free(h->next); } free(h); } }",
    ),
];

const PRELUDE: &str = "#include <assert.h>\n#include <math.h>\n#include <pthread.h>\n\
#include <semaphore.h>\n#include <stdatomic.h>\n#include <stdio.h>\n#include <stdlib.h>\n\
#include <string.h>\n#include <threads.h>\n#include <time.h>\n#include <unistd.h>\n";

/// A program of [`PER_PROGRAM`] constructs.
fn program(rng: &mut Rng) -> String {
    let mut decls = String::new();
    let mut stmts = String::new();
    for i in 0..PER_PROGRAM {
        let k = &CONSTRUCTS[rng.below(CONSTRUCTS.len())];
        let mut fill = |text: &str| -> String {
            let mut out = String::new();
            for ch in text.chars() {
                match ch {
                    '@' => out.push_str(&format!("_{i}")),
                    '#' => out.push_str(&(rng.below(7) + 1).to_string()),
                    c => out.push(c),
                }
            }
            out
        };
        decls.push_str(&fill(k.decls));
        decls.push('\n');
        stmts.push_str("  ");
        stmts.push_str(&fill(k.stmts));
        stmts.push('\n');
    }
    format!("{PRELUDE}{decls}int main(void) {{\n{stmts}  return 0;\n}}\n")
}

fn gcc_accepts(file: &Path) -> bool {
    Command::new("gcc")
        .args(["-fsyntax-only", "-w", "-std=gnu11", "-m32"])
        .arg(file)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn what_gcc_accepts_is_lowered() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gcc_accepts");
    std::fs::create_dir_all(&dir).unwrap();
    let probe = dir.join("probe.c");
    std::fs::write(&probe, format!("{PRELUDE}int main(void) {{ return 0; }}\n")).unwrap();
    let gcc = if gcc_accepts(&probe) {
        Ok(())
    } else {
        Err("no gcc -m32 with the C library's headers".to_string())
    };
    if common::resource("the comparison with gcc", gcc).is_none() {
        return;
    }
    let programs = common::env_u64("ASE_GCC_ACCEPTS_PROGRAMS", PROGRAMS);
    let mut rng = Rng(common::env_u64(
        "ASE_GCC_ACCEPTS_SEED",
        0xacce_97ed_0000_0001,
    ));
    let mut refused = Vec::new();
    for i in 0..programs {
        let text = program(&mut rng);
        let file = dir.join(format!("p{i}.c"));
        std::fs::write(&file, &text).unwrap();
        assert!(
            gcc_accepts(&file),
            "the generator wrote a program gcc rejects:\n{text}"
        );
        let out = Command::new(ASE).arg("lower").arg(&file).output().unwrap();
        if !out.status.success() {
            refused.push(format!(
                "{}: {}\n{text}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(
        refused.is_empty(),
        "{} of {programs} programs refused:\n{}",
        refused.len(),
        refused.join("\n")
    );
}
