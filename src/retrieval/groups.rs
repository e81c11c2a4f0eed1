//! Topic groups: `topic group` per line, a topic in any number of groups.
//! Groups keep the order of their first appearance, members theirs.

use super::input::{read_table, text};
use crate::diagnostics::Diagnostic;
use std::collections::HashSet;
use std::path::Path;

/// One group and its topics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Group {
    pub name: String,
    pub topics: Vec<String>,
}

/// Reads a groups file.
pub fn read_groups(path: &Path) -> Result<Vec<Group>, Diagnostic> {
    let mut groups: Vec<Group> = Vec::new();
    let mut members: HashSet<(usize, String)> = HashSet::new();
    read_table::<3>(path, |_, f, count| {
        let columns = || format!("expected `topic group` (2 columns), found {count} columns");
        let [topic, name, ..] = *f else {
            return Err(columns());
        };
        if count != 2 {
            return Err(columns());
        }
        let (topic, name) = (text(topic), text(name));
        let i = match groups.iter().position(|g| g.name == name) {
            Some(i) => i,
            None => {
                groups.push(Group {
                    name,
                    topics: Vec::new(),
                });
                groups.len() - 1
            }
        };
        if members.insert((i, topic.clone()))
            && let Some(group) = groups.get_mut(i)
        {
            group.topics.push(topic);
        }
        Ok(())
    })?;
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::test_files::file;

    #[test]
    fn groups_in_order_of_appearance() {
        let f = file("T1 EN\nT1 S\n# x\nT2 EN\nT1 EN\n");
        let g = read_groups(f.path()).unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].name, "EN");
        assert_eq!(g[0].topics, vec!["T1", "T2"]);
        assert_eq!(g[1].topics, vec!["T1"]);
        let f = file("T1 EN x\n");
        assert_eq!(read_groups(f.path()).unwrap_err().line, Some(1));
    }
}
