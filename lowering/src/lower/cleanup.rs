//! Thread cancellation clean-up handlers (`pthread_cleanup_push` and
//! `pthread_cleanup_pop`) as glibc's `<pthread.h>` expands them in C:
//!
//! ```c
//! do { __pthread_unwind_buf_t __cancel_buf;
//!      void (*__cancel_routine)(void *) = (routine);
//!      void *__cancel_arg = (arg);
//!      int __not_first_call = __sigsetjmp_cancel(__cancel_buf.__cancel_jmp_buf, 0);
//!      if (__builtin_expect(__not_first_call, 0)) {
//!        __cancel_routine(__cancel_arg); __pthread_unwind_next(&__cancel_buf); }
//!      __pthread_register_cancel(&__cancel_buf);
//!      do { ... } while (0);
//!    } while (0);
//!    __pthread_unregister_cancel(&__cancel_buf);
//!    if (execute) __cancel_routine(__cancel_arg);
//! } while (0)
//! ```
//!
//! `__sigsetjmp_cancel` returns a second time only when the thread is
//! cancelled or exits inside the region; here it returns 0 once, and
//! `pthread_exit` and a cancellation (`lower/cancel.rs`) run the
//! registered handlers themselves, innermost first
//! ([`Lowerer::run_cleanups`]). The handlers registered are known while
//! lowering (calls are inlined): the region's `__cancel_routine` and
//! `__cancel_arg` objects, pushed by `__pthread_register_cancel` and
//! popped by `__pthread_unregister_cancel`.

use frontend::lang_c::ast::Expression;
use frontend::lang_c::span::{Node, Span};

use super::expr::Val;
use super::{Binding, Lowerer};
use crate::error::{LowerError, Result};

impl Lowerer<'_> {
    /// The clean-up calls of glibc's expansion; `None` for other functions.
    pub(super) fn cleanup_call(
        &mut self,
        name: &str,
        _args: &[Node<Expression>],
        span: Span,
    ) -> Result<Option<Val>> {
        const MODELLED: &[&str] = &[
            "__sigsetjmp_cancel",
            "__pthread_register_cancel",
            "__pthread_unregister_cancel",
            "__pthread_unwind_next",
        ];
        if !self.models(MODELLED, name) {
            return Ok(None);
        }
        match name {
            "__sigsetjmp_cancel" => return Ok(Some(Val::int(0))),
            "__pthread_register_cancel" => {
                let handler = |me: &Self, n: &str| match me.lookup_local(n) {
                    Some(Binding::Obj(o)) => Some(o),
                    _ => None,
                };
                let (Some(routine), Some(arg)) = (
                    handler(self, "__cancel_routine"),
                    handler(self, "__cancel_arg"),
                ) else {
                    return Err(LowerError::unsupported(
                        span,
                        "`__pthread_register_cancel` outside glibc's `pthread_cleanup_push`",
                    ));
                };
                self.t.cleanups.push((routine, arg));
            }
            "__pthread_unregister_cancel" => {
                self.t.cleanups.pop();
            }
            "__pthread_unwind_next" => {
                // Reached only after a second return of `__sigsetjmp_cancel`.
                self.give_up_where(
                    engine::ir::Cond::True,
                    "unwinding after a thread cancellation",
                    span,
                );
            }
            _ => {}
        }
        Ok(Some(Val::int(0)))
    }

    /// At `pthread_exit`: the registered clean-up handlers run, innermost
    /// first, each with the handlers below it still registered.
    pub(super) fn run_cleanups(&mut self, span: Span) -> Result<()> {
        let handlers = self.t.cleanups.clone();
        for i in (0..handlers.len()).rev() {
            self.t.cleanups.truncate(i);
            let (routine, arg) = handlers[i];
            let f = self.whole(routine);
            let f = self.read(f, span)?;
            let a = self.whole(arg);
            let a = self.read(a, span)?;
            self.call_pointer(f, vec![a], span)?;
        }
        self.t.cleanups = handlers;
        Ok(())
    }
}
