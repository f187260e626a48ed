//! `sscanf` with integer and floating-point conversions: the string is
//! not modelled, so the call returns any count `r` in `[-1, n]` (`EOF`, or
//! how many of its `n` conversions succeeded) and gives the first `r`
//! targets arbitrary values of their types (a floating-point target the
//! abstract value, `floats`); the others keep theirs. This is every
//! behaviour the call can have on some input string.

use engine::ir::{CmpOp, Term};
use frontend::lang_c::ast::Expression;
use frontend::lang_c::span::{Node, Span};

use super::expr::{has_effects, Res, Val};
use super::{strings, Lowerer};
use crate::error::{LowerError, Result};
use crate::term::{and, cmp, within};
use crate::types::{CType, IntTy};

/// The conversions of a `scanf` format that assign a value (not `%%`, not
/// suppressed with `*`): their count, or the first conversion that is
/// neither an integer one (`d i o u x X`) nor a floating-point one
/// (`a e f g`, also upper case), as text.
pub(crate) fn value_conversions(format: &[i64]) -> std::result::Result<usize, String> {
    let chars: Vec<char> = format
        .iter()
        .map(|&c| u8::try_from(c).map_or('\u{fffd}', char::from))
        .collect();
    let mut n = 0;
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if chars.get(i) == Some(&'%') {
            i += 1;
            continue;
        }
        let suppressed = chars.get(i) == Some(&'*');
        if suppressed {
            i += 1;
        }
        while chars.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        while chars
            .get(i)
            .is_some_and(|c| matches!(c, 'h' | 'l' | 'j' | 'z' | 't' | 'L'))
        {
            i += 1;
        }
        match chars.get(i) {
            Some(
                'd' | 'i' | 'o' | 'u' | 'x' | 'X' | 'a' | 'e' | 'f' | 'g' | 'A' | 'E' | 'F' | 'G',
            ) => {
                if !suppressed {
                    n += 1;
                }
                i += 1;
            }
            _ => {
                let end = (i + 1).min(chars.len());
                return Err(chars[start..end].iter().collect());
            }
        }
    }
    Ok(n)
}

impl Lowerer<'_> {
    /// `sscanf(s, "format", &a, &b, ...)`: see the module documentation.
    pub(super) fn sscanf(&mut self, args: &[Node<Expression>], span: Span) -> Result<Val> {
        let unsupported = |why: String| LowerError::unsupported(span, format!("`sscanf` {why}"));
        let [input, format, targets @ ..] = args else {
            return Err(LowerError::invalid(
                span,
                "`sscanf` needs a string and a format",
            ));
        };
        if has_effects(input) {
            return Err(unsupported(
                "with side effects in its string argument".into(),
            ));
        }
        let Expression::StringLiteral(lit) = &format.node else {
            return Err(unsupported(
                "with a format that is not a string literal".into(),
            ));
        };
        let chars = strings::literal_chars(&lit.node)
            .ok_or_else(|| unsupported("with this kind of format literal".into()))?;
        let n = value_conversions(&chars).map_err(|c| {
            unsupported(format!(
                "conversion `{c}` is not modelled (only the integer conversions d, i, o, u, x, \
                 X and the floating-point ones a, e, f, g)"
            ))
        })?;
        if targets.len() != n {
            return Err(LowerError::invalid(
                span,
                format!(
                    "`sscanf` format has {n} conversions but the call gives {} targets",
                    targets.len()
                ),
            ));
        }
        let mut places = Vec::with_capacity(n);
        for t in targets {
            let p = self.pointee(t, span)?;
            if !matches!(p.ty, CType::Int(_) | CType::Float(_)) {
                return Err(unsupported(
                    "into a target that is not an integer or floating-point object".into(),
                ));
            }
            places.push(p);
        }
        // The count of successful conversions, or EOF.
        let int = CType::Int(IntTy::INT);
        let r = self.temp(&int);
        self.t.pending_havoc.push(r);
        self.t
            .pending_guard
            .push(within(&Term::Var(r), -1, n as i128));
        for (i, p) in places.into_iter().enumerate() {
            let k = Term::Const(i as i64);
            let value = match p.ty {
                CType::Float(_) => super::floats::TOKEN,
                _ => Term::Var(self.havoc_temp(&p.ty)),
            };
            // Converted when `r > i`, else unchanged.
            let old = self.read(p.clone(), span)?;
            let mut cases = vec![(cmp(CmpOp::Gt, Term::Var(r), k.clone()), Res::Val(value))];
            for (c, res) in old.cases {
                cases.push((and(cmp(CmpOp::Le, Term::Var(r), k.clone()), c), res));
            }
            let ty = p.ty.clone();
            self.store(p, Val { cases, ty }.pruned(), span)?;
        }
        Ok(Val::term(Term::Var(r), int))
    }
}

#[cfg(test)]
mod tests {
    use super::value_conversions;

    fn count(f: &str) -> std::result::Result<usize, String> {
        let chars: Vec<i64> = f.bytes().map(i64::from).collect();
        value_conversions(&chars)
    }

    #[test]
    fn integer_conversions_are_counted() {
        assert_eq!(count("%d"), Ok(1));
        assert_eq!(count("%d %u,%x"), Ok(3));
        assert_eq!(count("100%% %*d %5ld %hhu"), Ok(2));
        assert_eq!(count("no conversions"), Ok(0));
        assert_eq!(count("%d %s"), Err("%s".into()));
        assert_eq!(count("%f %lf %Lg %*e"), Ok(3));
        assert_eq!(count("%c"), Err("%c".into()));
        assert_eq!(count("%"), Err("%".into()));
    }
}
