//! The papers' result tables, read from their markdown transcription
//! (`../shared/paper-tables.md`): every pipe table under its `## ` heading,
//! cells looked up by column name.

/// One markdown table: the `## ` heading it stands under, its header
/// names and its rows (each as long as the header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The text of the last `## ` heading before the table ("" if none).
    pub heading: String,
    /// The column names, trimmed.
    pub headers: Vec<String>,
    /// The body rows; each has exactly `headers.len()` cells.
    pub rows: Vec<Vec<String>>,
}

/// A body row of a [`Table`], whose cells are looked up by column name.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    /// The table the row belongs to.
    pub table: &'a Table,
    /// The row's cells, in the order of `table.headers`.
    pub cells: &'a [String],
}

impl<'a> Row<'a> {
    /// The cell of the column named `header` (exact match after
    /// trimming), if the table has that column.
    pub fn get(&self, header: &str) -> Option<&'a str> {
        let i = self.table.headers.iter().position(|h| h == header)?;
        self.cells.get(i).map(String::as_str)
    }

    /// The cell of the first of `headers` the table has.
    pub fn first_of(&self, headers: &[&str]) -> Option<&'a str> {
        headers.iter().find_map(|h| self.get(h))
    }
}

impl Table {
    /// The body rows.
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.rows
            .iter()
            .map(move |cells| Row { table: self, cells })
    }
}

/// All tables of a markdown document, in document order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tables {
    /// The tables.
    pub tables: Vec<Table>,
}

impl Tables {
    /// Reads every pipe table of `text`. A table is a header line, a
    /// delimiter line (`| --- | :-: |`) and the `|` lines that follow.
    /// Never fails: anything that is not a table is skipped.
    pub fn parse(text: &str) -> Tables {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let mut tables = Vec::new();
        let mut heading = String::new();
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i];
            if let Some(h) = line.strip_prefix("## ") {
                heading = h.trim().to_string();
                i += 1;
                continue;
            }
            let delimiter = lines.get(i + 1).copied().unwrap_or("");
            if !(line.starts_with('|') && is_delimiter(delimiter)) {
                i += 1;
                continue;
            }
            let headers = split_row(line);
            let mut rows = Vec::new();
            i += 2;
            while i < lines.len() && lines[i].starts_with('|') {
                let mut cells = split_row(lines[i]);
                cells.resize(headers.len(), String::new());
                rows.push(cells);
                i += 1;
            }
            tables.push(Table {
                heading: heading.clone(),
                headers,
                rows,
            });
        }
        Tables { tables }
    }

    /// The first row, among the tables whose heading starts with
    /// `heading_prefix`, whose `column` names `key`: the cell's first
    /// word, with `**`/`*` emphasis and `[?]` marks removed, equals `key`.
    pub fn find(&self, heading_prefix: &str, column: &str, key: &str) -> Option<Row<'_>> {
        self.tables
            .iter()
            .filter(|t| t.heading.starts_with(heading_prefix))
            .flat_map(Table::rows)
            .find(|r| {
                r.get(column)
                    .and_then(|c| plain(c).split_whitespace().next().map(str::to_owned))
                    .is_some_and(|w| w == key)
            })
    }
}

/// A cell without its marks: emphasis (`**`, `*`) and `[?]` removed,
/// spaces trimmed. `"1063 **[?]**"` becomes `"1063"`.
pub fn plain(cell: &str) -> String {
    let s = cell.replace("[?]", "").replace('*', "");
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `line` is a table's delimiter line (`|---|:---:|`).
fn is_delimiter(line: &str) -> bool {
    if !line.starts_with('|') {
        return false;
    }
    let cells = split_row(line);
    !cells.is_empty()
        && cells.iter().all(|c| {
            let c = c.strip_prefix(':').unwrap_or(c);
            let c = c.strip_suffix(':').unwrap_or(c);
            !c.is_empty() && c.chars().all(|ch| ch == '-')
        })
}

/// The trimmed cells of a `| a | b |` line; `\|` is a literal pipe.
fn split_row(line: &str) -> Vec<String> {
    let line = line.trim();
    let line = line.strip_prefix('|').unwrap_or(line);
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push('|');
                chars.next();
            }
            '|' => cells.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(c),
        }
    }
    // Text after the last pipe is a cell only if the row has no closing
    // pipe.
    if !cur.trim().is_empty() {
        cells.push(cur.trim().to_string());
    }
    cells
}
