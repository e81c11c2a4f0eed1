use super::*;
use crate::flowchart::formats::by_key;

fn folder_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

const CHART: &str = "NO 1 oval \"a\"\nNO 2 oval \"b\"\nUE 1 2 wiggly\n";

fn messages(errors: &[Diagnostic]) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

#[test]
fn a_folder_is_written_file_by_file_with_the_format_extension() {
    let dir = folder_with(&[
        ("A.txt", CHART),
        ("B.mmd", "flowchart LR\n  x --> y\n"),
        ("README.md", "# prose\n"),
    ]);
    let out = dir.path().join("out");
    let done = convert(
        &[dir.path().to_path_buf()],
        by_key("mermaid").unwrap(),
        &Target::Folder(out.clone()),
    )
    .unwrap();
    let targets: Vec<&Path> = done.files.iter().map(|f| f.target.as_path()).collect();
    assert_eq!(targets, [out.join("A.mmd"), out.join("B.mmd")]);
    assert_eq!(
        done.files[0].text,
        "flowchart TD\n    n1([\"a\"])\n    n2([\"b\"])\n    n1 --- n2\n"
    );
    assert_eq!(
        messages(&done.warnings),
        [format!(
            "{}: warning: as Mermaid flowchart: 1 wiggly edge written as plain: Mermaid has no such line",
            dir.path().join("A.txt").display()
        )]
    );
    assert_eq!(done.skipped.len(), 1);
}

#[test]
fn one_file_to_one_file_and_many_files_need_a_folder() {
    let dir = folder_with(&[("A.txt", CHART), ("B.txt", CHART)]);
    let a = dir.path().join("A.txt");
    let dot = by_key("dot").unwrap();
    let done = convert(std::slice::from_ref(&a), dot, &Target::File("x.gv".into())).unwrap();
    assert_eq!(done.files[0].target, Path::new("x.gv"));
    assert!(
        done.files[0]
            .text
            .contains("n1 -> n2 [dir=none, clef_type=\"wiggly\"];")
    );
    let errors = convert(
        &[dir.path().to_path_buf()],
        dot,
        &Target::File("x.gv".into()),
    )
    .unwrap_err();
    assert_eq!(
        messages(&errors),
        [
            "x.gv: error: -o writes one file but 2 flowchart files were given: write them into a folder with --out-dir"
        ]
    );
}

#[test]
fn two_inputs_of_one_stem_or_an_input_as_target_stop_everything() {
    let dir = folder_with(&[("A.txt", CHART), ("A.mmd", "flowchart TD\n  a --> b\n")]);
    let out = dir.path().join("out");
    let errors = convert(
        &[dir.path().to_path_buf()],
        by_key("dot").unwrap(),
        &Target::Folder(out.clone()),
    )
    .unwrap_err();
    assert_eq!(
        messages(&errors),
        [format!(
            "{}: error: both {} and {} would be written here: convert them into different folders",
            out.join("A.dot").display(),
            dir.path().join("A.mmd").display(),
            dir.path().join("A.txt").display()
        )]
    );
    let errors = convert(
        &[dir.path().join("A.txt")],
        by_key("clef").unwrap(),
        &Target::Folder(dir.path().to_path_buf()),
    )
    .unwrap_err();
    assert_eq!(
        messages(&errors),
        [format!(
            "{}: error: is an input of this conversion: it would be overwritten; write into another folder",
            dir.path().join("A.txt").display()
        )]
    );
}

#[test]
fn a_file_with_an_error_stops_everything_and_is_named() {
    let dir = folder_with(&[("A.txt", CHART), ("B.txt", "NO 1 oval\nDE 1 7 plain\n")]);
    let errors = convert(
        &[dir.path().to_path_buf()],
        by_key("drawio").unwrap(),
        &Target::Folder(dir.path().join("out")),
    )
    .unwrap_err();
    assert_eq!(
        messages(&errors),
        [format!(
            "{}:2: error: edge names node id 7, which no NO record defines; the edge is ignored",
            dir.path().join("B.txt").display()
        )]
    );
    let empty = tempfile::tempdir().unwrap();
    let errors = convert(
        &[empty.path().to_path_buf()],
        by_key("drawio").unwrap(),
        &Target::Folder(dir.path().join("out")),
    )
    .unwrap_err();
    assert!(
        messages(&errors)[0].contains("no flowchart files ("),
        "{errors:?}"
    );
}
