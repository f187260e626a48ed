//! Recursive-descent parser from tokens to the syntax tree.
//!
//! Syntax errors are recovered from at item level (and at transition level
//! inside a thread body), so one run reports several of them.

use super::ast::*;
use super::lexer::{Keyword, Token, TokenKind};
use super::ParseError;
use crate::ir::{CmpOp, Span};

/// Bound on nested parentheses and prefix operators, which the parser
/// handles by recursion (several large frames per level in debug builds):
/// hostile input must not overflow the stack, even on a 2 MiB thread.
const MAX_NESTING: u32 = 64;

/// Bound on the height of expression trees, including operator chains such
/// as `x + x + ... + x` that the parser builds by iteration: every later pass
/// over expressions (resolution, printing, the checker) recurses.
const MAX_HEIGHT: u32 = 512;

/// After this many syntax errors the rest are likely to be noise.
const MAX_SYNTAX_ERRORS: usize = 20;

/// Marks a failed parse whose error has already been recorded.
struct Fatal;

type PResult<T> = Result<T, Fatal>;

pub(super) struct Parser<'a> {
    src: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    depth: u32,
    pub(super) errors: Vec<ParseError>,
}

impl<'a> Parser<'a> {
    /// `tokens` must end with `Eof`.
    pub(super) fn new(src: &'a str, tokens: Vec<Token>) -> Self {
        Parser {
            src,
            tokens,
            pos: 0,
            depth: 0,
            errors: Vec::new(),
        }
    }

    // ----- token access -------------------------------------------------

    fn peek(&self) -> Token {
        self.nth(0)
    }

    fn nth(&self, n: usize) -> Token {
        let last = self.tokens.len().saturating_sub(1);
        self.tokens
            .get((self.pos + n).min(last))
            .copied()
            .unwrap_or(Token {
                kind: TokenKind::Eof,
                span: Span::new(self.src.len(), self.src.len()),
            })
    }

    fn bump(&mut self) -> Token {
        let t = self.peek();
        if t.kind != TokenKind::Eof {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, kind: TokenKind) -> Option<Token> {
        (self.peek().kind == kind).then(|| self.bump())
    }

    fn text(&self, t: Token) -> &'a str {
        self.src.get(t.span.range()).unwrap_or("")
    }

    fn name(&self, t: Token) -> Name<'a> {
        Name {
            text: self.text(t),
            span: t.span,
        }
    }

    /// The end of the last consumed token.
    fn prev_end(&self) -> u32 {
        match self.pos.checked_sub(1).and_then(|p| self.tokens.get(p)) {
            Some(t) => t.span.end,
            None => 0,
        }
    }

    fn span_from(&self, start: u32) -> Span {
        Span {
            start,
            end: self.prev_end().max(start),
        }
    }

    // ----- errors -------------------------------------------------------

    fn describe(&self, t: Token) -> String {
        match t.kind {
            TokenKind::Ident => format!("identifier `{}`", self.text(t)),
            TokenKind::Int => format!("integer `{}`", self.text(t)),
            TokenKind::Kw(k) => format!("keyword `{}`", k.as_str()),
            other => other.describe().to_string(),
        }
    }

    /// Records "expected `expected`, found <next token>" and fails.
    fn unexpected<T>(&mut self, expected: &str) -> PResult<T> {
        let found = self.peek();
        let mut err = ParseError::new(
            found.span,
            format!("expected {expected}, found {}", self.describe(found)),
        );
        if let TokenKind::Kw(k) = found.kind {
            if ["identifier", "name", "location"]
                .iter()
                .any(|w| expected.contains(w))
            {
                err.notes
                    .push(format!("`{}` is a reserved word", k.as_str()));
            }
        }
        match found.kind {
            TokenKind::Eq if expected.contains("operator") => {
                err.notes.push("equality is written `==`".to_string());
            }
            TokenKind::Colon if expected == "`->`" => {
                err.notes
                    .push("transition labels must be identifiers".to_string());
            }
            _ => {}
        }
        // The commonest slip: a forgotten `;` at the end of a line, which
        // is only noticed at the start of the next one.
        if expected.contains("`;`") && self.pos > 0 {
            let prev_end = self.prev_end() as usize;
            let gap = self
                .src
                .get(prev_end..found.span.start as usize)
                .unwrap_or("");
            let line_break = gap.contains('\n') || found.kind == TokenKind::Eof;
            if let (true, Some(prev)) = (line_break, self.tokens.get(self.pos - 1)) {
                err.labels
                    .push((prev.span, "a `;` may be missing after this".to_string()));
            }
        }
        self.errors.push(err);
        Err(Fatal)
    }

    fn expect(&mut self, kind: TokenKind, expected: &str) -> PResult<Token> {
        match self.eat(kind) {
            Some(t) => Ok(t),
            None => self.unexpected(expected),
        }
    }

    fn expect_ident(&mut self, expected: &str) -> PResult<Name<'a>> {
        let t = self.expect(TokenKind::Ident, expected)?;
        Ok(self.name(t))
    }

    fn loc(&mut self, expected: &str) -> PResult<Name<'a>> {
        match self.peek().kind {
            TokenKind::Ident | TokenKind::Int => {
                let t = self.bump();
                Ok(self.name(t))
            }
            _ => self.unexpected(expected),
        }
    }

    // ----- items --------------------------------------------------------

    fn at_item_start(&self) -> bool {
        matches!(
            self.peek().kind,
            TokenKind::Eof
                | TokenKind::Kw(Keyword::Var | Keyword::Init | Keyword::Thread | Keyword::Error)
        )
    }

    /// Parses the whole file. Syntax errors are left in `self.errors`.
    pub(super) fn program(&mut self) -> Vec<Item<'a>> {
        let mut items = Vec::new();
        while self.errors.len() < MAX_SYNTAX_ERRORS {
            let item = match self.peek().kind {
                TokenKind::Eof => break,
                TokenKind::Kw(Keyword::Var) => self.var_decl(),
                TokenKind::Kw(Keyword::Init) => self.init_or_error(Keyword::Init),
                TokenKind::Kw(Keyword::Thread) => self.thread(),
                TokenKind::Kw(Keyword::Error) => self.init_or_error(Keyword::Error),
                _ => self.unexpected("`var`, `init`, `thread` or `error`"),
            };
            match item {
                Ok(item) => items.push(item),
                Err(Fatal) => {
                    // Always make progress, then resume at the next item.
                    if !self.at_item_start() {
                        self.bump();
                    }
                    while !self.at_item_start() {
                        self.bump();
                    }
                }
            }
        }
        items
    }

    fn var_decl(&mut self) -> PResult<Item<'a>> {
        self.bump();
        let mut vars = Vec::new();
        loop {
            let name = self.expect_ident("a variable name")?;
            let array = self.eat(TokenKind::LBracket).is_some();
            if array {
                self.expect(TokenKind::RBracket, "`]` (an array is declared `a[]`)")?;
            }
            let mut init = None;
            if self.eat(TokenKind::Eq).is_some() {
                let negative = self.eat(TokenKind::Minus).is_some();
                let lit = match self.eat(TokenKind::Int) {
                    Some(t) => t,
                    None => {
                        let r = self.unexpected("an integer");
                        if let Some(err) = self.errors.last_mut() {
                            err.notes.push(
                                "initial values are integer literals; \
                                 constrain initial values with `init` instead"
                                    .to_string(),
                            );
                        }
                        return r;
                    }
                };
                init = Some((negative, magnitude(self.text(lit)), lit.span));
            }
            vars.push(VarItem {
                name,
                array,
                init,
                span: self.span_from(name.span.start),
            });
            if self.eat(TokenKind::Comma).is_none() {
                let expected = if init.is_some() {
                    "`,` or `;`"
                } else {
                    "`=`, `,` or `;`"
                };
                self.expect(TokenKind::Semi, expected)?;
                return Ok(Item::Var(vars));
            }
        }
    }

    fn init_or_error(&mut self, kw: Keyword) -> PResult<Item<'a>> {
        self.bump();
        let e = self.expr()?;
        self.expect(TokenKind::Semi, "an operator or `;`")?;
        Ok(match kw {
            Keyword::Init => Item::Init(e),
            _ => Item::Error(e),
        })
    }

    fn thread(&mut self) -> PResult<Item<'a>> {
        let start = self.bump().span.start;
        let name = self.expect_ident("a thread name")?;
        self.expect(TokenKind::Kw(Keyword::At), "`at`")?;
        let initial = self.loc("the initial location (an identifier or an integer)")?;
        let header_span = self.span_from(start);
        let open = self.expect(TokenKind::LBrace, "`{`")?;
        let mut transitions = Vec::new();
        loop {
            match self.peek().kind {
                TokenKind::RBrace => {
                    self.bump();
                    break;
                }
                _ if self.at_item_start() => {
                    let r = self.unexpected("a transition or `}`");
                    if let Some(err) = self.errors.last_mut() {
                        err.labels
                            .push((open.span, "thread body starts here".to_string()));
                    }
                    return r;
                }
                _ => {}
            }
            match self.transition() {
                Ok(t) => transitions.push(t),
                Err(Fatal) => {
                    if self.errors.len() >= MAX_SYNTAX_ERRORS {
                        return Err(Fatal);
                    }
                    // Resume at the next transition of this thread, if the
                    // body goes on.
                    loop {
                        match self.peek().kind {
                            TokenKind::Semi => {
                                self.bump();
                                break;
                            }
                            TokenKind::RBrace => break,
                            _ if self.at_item_start() => return Err(Fatal),
                            _ => {
                                self.bump();
                            }
                        }
                    }
                }
            }
        }
        Ok(Item::Thread(ThreadDecl {
            name,
            initial,
            header_span,
            transitions,
        }))
    }

    fn transition(&mut self) -> PResult<TransDecl<'a>> {
        let start = self.peek().span.start;
        let mut label = None;
        if self.peek().kind == TokenKind::Ident && self.nth(1).kind == TokenKind::Colon {
            let t = self.bump();
            label = Some(self.name(t));
            self.bump();
        }
        let from = self.loc(if label.is_some() {
            "a location"
        } else {
            "a transition (a label or a location)"
        })?;
        self.expect(TokenKind::Arrow, "`->`")?;
        let to = self.loc("a location")?;
        let mut guard = None;
        let mut assigns = Vec::new();
        let mut expected = "`when`, `do` or `;`";
        if self.eat(TokenKind::Kw(Keyword::When)).is_some() {
            guard = Some(self.expr()?);
            expected = "an operator, `do` or `;`";
        }
        if self.eat(TokenKind::Kw(Keyword::Do)).is_some() {
            loop {
                let var = self.expect_ident("a variable name")?;
                let index = if self.eat(TokenKind::LBracket).is_some() {
                    let i = self.nested(Self::add)?;
                    self.expect(TokenKind::RBracket, "`]`")?;
                    Some(i)
                } else {
                    None
                };
                self.expect(TokenKind::Assign, "`:=`")?;
                let rhs = if self.eat(TokenKind::Star).is_some() {
                    None
                } else {
                    Some(self.expr()?)
                };
                assigns.push(AssignDecl { var, index, rhs });
                if self.eat(TokenKind::Comma).is_none() {
                    break;
                }
            }
            expected = "an operator, `,` or `;`";
        }
        self.expect(TokenKind::Semi, expected)?;
        Ok(TransDecl {
            label,
            from,
            to,
            guard,
            assigns,
            span: self.span_from(start),
        })
    }

    // ----- expressions --------------------------------------------------

    /// Runs `f` one nesting level deeper, failing past the limit.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            let span = self.peek().span;
            self.errors.push(ParseError::new(
                span,
                format!(
                    "expression is nested too deeply (the limit is {MAX_NESTING} levels \
                     of parentheses and prefix operators)"
                ),
            ));
            return Err(Fatal);
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn too_deep<T>(&mut self, span: Span) -> PResult<T> {
        self.errors.push(ParseError::new(
            span,
            format!(
                "expression is too long or nested too deeply (the limit is {MAX_HEIGHT} \
                 levels of operators)"
            ),
        ));
        Err(Fatal)
    }

    fn leaf(kind: ExprKind<'a>, span: Span) -> Expr<'a> {
        Expr {
            kind,
            span,
            height: 1,
        }
    }

    /// A node with one child (`!`, `-`, parentheses).
    fn wrap(&mut self, kind: ExprKind<'a>, span: Span) -> PResult<Expr<'a>> {
        let child = match &kind {
            ExprKind::Not(c) | ExprKind::Neg(c) | ExprKind::Paren(c) => c.height,
            _ => 0,
        };
        if child >= MAX_HEIGHT {
            return self.too_deep(span);
        }
        Ok(Expr {
            kind,
            span,
            height: child + 1,
        })
    }

    fn binary(
        &mut self,
        l: Expr<'a>,
        r: Expr<'a>,
        make: impl FnOnce(Box<Expr<'a>>, Box<Expr<'a>>) -> ExprKind<'a>,
    ) -> PResult<Expr<'a>> {
        let span = Span {
            start: l.span.start,
            end: r.span.end,
        };
        let height = 1 + l.height.max(r.height);
        if height > MAX_HEIGHT {
            return self.too_deep(span);
        }
        Ok(Expr {
            kind: make(Box::new(l), Box::new(r)),
            span,
            height,
        })
    }

    /// A whole condition as flat lists, for certificate invariants (whose
    /// disjunctions can be far longer than [`MAX_HEIGHT`]): disjuncts
    /// separated by `||`, each a list of conjuncts separated by `&&`, each
    /// conjunct a negation, a comparison or a parenthesised condition. The
    /// input must be consumed entirely; errors are left in `self.errors`.
    pub(super) fn dnf(&mut self) -> Vec<Vec<Expr<'a>>> {
        self.dnf_inner().unwrap_or_default()
    }

    fn dnf_inner(&mut self) -> PResult<Vec<Vec<Expr<'a>>>> {
        let mut out = Vec::new();
        loop {
            let mut conj = vec![self.not()?];
            while self.eat(TokenKind::AndAnd).is_some() {
                conj.push(self.not()?);
            }
            out.push(conj);
            if self.eat(TokenKind::OrOr).is_none() {
                break;
            }
        }
        if self.peek().kind != TokenKind::Eof {
            return self.unexpected("`&&`, `||` or the end of the condition");
        }
        Ok(out)
    }

    fn expr(&mut self) -> PResult<Expr<'a>> {
        let mut l = self.and()?;
        while self.eat(TokenKind::OrOr).is_some() {
            let r = self.and()?;
            l = self.binary(l, r, ExprKind::Or)?;
        }
        Ok(l)
    }

    fn and(&mut self) -> PResult<Expr<'a>> {
        let mut l = self.not()?;
        while self.eat(TokenKind::AndAnd).is_some() {
            let r = self.not()?;
            l = self.binary(l, r, ExprKind::And)?;
        }
        Ok(l)
    }

    /// `!` applies to a whole comparison: `!x > 0` is `!(x > 0)`, which is
    /// also how the printer writes a negated comparison.
    fn not(&mut self) -> PResult<Expr<'a>> {
        if self.peek().kind != TokenKind::Bang {
            return self.cmp();
        }
        let start = self.bump().span.start;
        let inner = self.nested(Self::not)?;
        let span = self.span_from(start);
        self.wrap(ExprKind::Not(Box::new(inner)), span)
    }

    fn cmp_op(&self) -> Option<CmpOp> {
        Some(match self.peek().kind {
            TokenKind::EqEq => CmpOp::Eq,
            TokenKind::Ne => CmpOp::Ne,
            TokenKind::Lt => CmpOp::Lt,
            TokenKind::Le => CmpOp::Le,
            TokenKind::Gt => CmpOp::Gt,
            TokenKind::Ge => CmpOp::Ge,
            _ => return None,
        })
    }

    fn cmp(&mut self) -> PResult<Expr<'a>> {
        let l = self.add()?;
        let Some(op) = self.cmp_op() else {
            return Ok(l);
        };
        self.bump();
        let r = self.add()?;
        if self.cmp_op().is_some() {
            let mut err = ParseError::new(
                self.peek().span,
                "comparison operators cannot be chained".to_string(),
            );
            err.notes
                .push("combine comparisons with `&&`, as in `a < b && b < c`".to_string());
            self.errors.push(err);
            return Err(Fatal);
        }
        self.binary(l, r, |a, b| ExprKind::Cmp(op, a, b))
    }

    fn add(&mut self) -> PResult<Expr<'a>> {
        let mut l = self.mul()?;
        loop {
            let op = match self.peek().kind {
                TokenKind::Plus => ArithOp::Add,
                TokenKind::Minus => ArithOp::Sub,
                _ => return Ok(l),
            };
            self.bump();
            let r = self.mul()?;
            l = self.binary(l, r, |a, b| ExprKind::Arith(op, a, b))?;
        }
    }

    fn mul(&mut self) -> PResult<Expr<'a>> {
        let mut l = self.unary()?;
        loop {
            let op = match self.peek().kind {
                TokenKind::Star => ArithOp::Mul,
                TokenKind::Slash => ArithOp::Div,
                TokenKind::Percent => ArithOp::Mod,
                _ => return Ok(l),
            };
            self.bump();
            let r = self.unary()?;
            l = self.binary(l, r, |a, b| ExprKind::Arith(op, a, b))?;
        }
    }

    fn unary(&mut self) -> PResult<Expr<'a>> {
        if self.peek().kind != TokenKind::Minus {
            return self.primary();
        }
        let start = self.bump().span.start;
        if let Some(lit) = self.eat(TokenKind::Int) {
            let m = magnitude(self.text(lit));
            return Ok(Self::leaf(ExprKind::NegInt(m), self.span_from(start)));
        }
        let inner = self.nested(Self::unary)?;
        let span = self.span_from(start);
        self.wrap(ExprKind::Neg(Box::new(inner)), span)
    }

    fn primary(&mut self) -> PResult<Expr<'a>> {
        let t = self.peek();
        match t.kind {
            TokenKind::Int => {
                self.bump();
                let m = magnitude(self.text(t));
                Ok(Self::leaf(ExprKind::Int(m), t.span))
            }
            TokenKind::Kw(Keyword::True) | TokenKind::Kw(Keyword::False) => {
                self.bump();
                let b = t.kind == TokenKind::Kw(Keyword::True);
                Ok(Self::leaf(ExprKind::Bool(b), t.span))
            }
            TokenKind::Ident if self.nth(1).kind == TokenKind::At => {
                self.bump();
                let thread = self.name(t);
                self.bump();
                let loc = self.loc("a location (an identifier or an integer)")?;
                let span = self.span_from(t.span.start);
                Ok(Self::leaf(ExprKind::At { thread, loc }, span))
            }
            TokenKind::Ident if self.nth(1).kind == TokenKind::LParen => {
                self.bump();
                let name = self.name(t);
                self.bump();
                let a = self.nested(Self::add)?;
                self.expect(TokenKind::Comma, "`,`")?;
                let b = self.nested(Self::add)?;
                self.expect(TokenKind::RParen, "`)`")?;
                let span = self.span_from(t.span.start);
                let height = 1 + a.height.max(b.height);
                if height > MAX_HEIGHT {
                    return self.too_deep(span);
                }
                Ok(Expr {
                    kind: ExprKind::Call(name, Box::new(a), Box::new(b)),
                    span,
                    height,
                })
            }
            TokenKind::Ident if self.nth(1).kind == TokenKind::LBracket => {
                self.bump();
                let name = self.name(t);
                self.bump();
                let i = self.nested(Self::add)?;
                self.expect(TokenKind::RBracket, "an operator or `]`")?;
                let span = self.span_from(t.span.start);
                if i.height >= MAX_HEIGHT {
                    return self.too_deep(span);
                }
                let height = i.height + 1;
                Ok(Expr {
                    kind: ExprKind::Select(name, Box::new(i)),
                    span,
                    height,
                })
            }
            TokenKind::Ident => {
                self.bump();
                Ok(Self::leaf(ExprKind::Var(self.text(t)), t.span))
            }
            TokenKind::LParen => {
                self.bump();
                let inner = self.nested(Self::expr)?;
                if self.peek().kind != TokenKind::RParen {
                    let r = self.unexpected("an operator or `)`");
                    if let Some(err) = self.errors.last_mut() {
                        err.labels
                            .push((t.span, "unclosed parenthesis".to_string()));
                    }
                    return r;
                }
                self.bump();
                let span = self.span_from(t.span.start);
                self.wrap(ExprKind::Paren(Box::new(inner)), span)
            }
            _ => self.unexpected("an expression"),
        }
    }
}

/// The value of a string of ASCII digits, `None` past `u64::MAX`.
fn magnitude(digits: &str) -> Magnitude {
    digits.parse::<u64>().ok()
}
