pub fn run(
    _d: &std::path::Path,
    _r: u32,
    _p: Option<&std::path::Path>,
    _l: &crate::Limits,
) -> anyhow::Result<u8> {
    todo!()
}
