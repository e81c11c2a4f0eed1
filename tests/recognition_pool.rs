//! The worker pool: real `clefeval inchi-worker` processes, and a wrapper
//! worker that hangs or crashes on marked structures, to check that a
//! failure costs that structure alone and that results keep input order.

use clefeval::recognition::inchi::{self, Conversion};
use clefeval::recognition::worker::{Input, Pool, WorkerCommand, serve};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn gold_texts() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/recognition/gold");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect()
}

fn pool(command: WorkerCommand, jobs: usize, timeout: Duration) -> Pool {
    Pool {
        command,
        jobs,
        timeout,
    }
}

#[test]
fn workers_give_the_in_process_results_in_input_order() {
    let texts = gold_texts();
    let expected: Vec<Conversion> = texts.iter().map(|t| inchi::convert(t)).collect();
    assert!(expected.iter().filter(|c| c.is_ok()).count() >= 10);
    let command = WorkerCommand::clefeval(env!("CARGO_BIN_EXE_clefeval"));
    for jobs in [1, 2, 5] {
        let got = pool(command.clone(), jobs, Duration::from_secs(10))
            .convert_all(&texts, &|| {})
            .unwrap();
        assert_eq!(got, expected, "jobs {jobs}");
    }
}

#[test]
fn workers_convert_smiles_and_mol_texts_in_one_batch() {
    let smiles = [
        "N[C@@H](C)C(=O)O",
        "c1ccccc1",
        "n1cccc1",
        "C(C",
        "[Na+].[Cl-]",
    ];
    let mut inputs: Vec<Input> = Vec::new();
    let mut expected: Vec<Conversion> = Vec::new();
    for (s, mol) in smiles.iter().zip(gold_texts()) {
        inputs.push(Input::Smiles {
            smiles: s.to_string(),
        });
        expected.push(clefeval::recognition::smiles::convert(s));
        expected.push(inchi::convert(&mol));
        inputs.push(Input::Mol(mol));
    }
    // The SMILES answers are the ones RDKit gives (two refused).
    let inchis: Vec<Option<&str>> = expected
        .iter()
        .step_by(2)
        .map(|c| c.as_ref().ok().map(|i| i.inchi.as_str()))
        .collect();
    assert_eq!(
        inchis,
        [
            Some("InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1"),
            Some("InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H"),
            None,
            None,
            Some("InChI=1S/ClH.Na/h1H;/q;+1/p-1"),
        ]
    );
    let command = WorkerCommand::clefeval(env!("CARGO_BIN_EXE_clefeval"));
    let got = pool(command, 2, Duration::from_secs(10))
        .convert_all(&inputs, &|| {})
        .unwrap();
    assert_eq!(got, expected);
    assert_eq!(
        got[6],
        Err("character 2: `(` never closed".to_string()),
        "the reason names the character"
    );
}

/// A worker that hangs on structures titled HANG, dies of SIGSEGV on those
/// titled CRASH and hands every other request to a fresh real worker.
fn faulty_worker(dir: &Path) -> WorkerCommand {
    let script = dir.join("faulty-worker.sh");
    std::fs::write(
        &script,
        "while IFS= read -r line; do\n\
         case \"$line\" in\n\
         \\\"HANG*) exec sleep 60 ;;\n\
         \\\"CRASH*) kill -SEGV $$ ;;\n\
         *) printf '%s\\n' \"$line\" | \"$1\" inchi-worker ;;\n\
         esac\n\
         done\n",
    )
    .unwrap();
    WorkerCommand {
        program: "bash".into(),
        args: vec![script.into(), env!("CARGO_BIN_EXE_clefeval").into()],
    }
}

/// A V2000 record of an unbranched alkane with `n` carbons (over 16 KiB
/// for n = 250, so it is never sent to a busy worker).
fn alkane(n: usize) -> String {
    let mut text = format!(
        "\n  chain\n\n{n:3}{:3}  0  0  0  0  0  0  0  0999 V2000\n",
        n - 1
    );
    for i in 0..n {
        let y = if i % 2 == 0 { 0.0 } else { 0.75 };
        text.push_str(&format!(
            "{:10.4}{y:10.4}    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n",
            1.3 * i as f64
        ));
    }
    for i in 1..n {
        text.push_str(&format!("{i:3}{:3}  1  0\n", i + 1));
    }
    text.push_str("M  END\n");
    text
}

#[test]
fn a_hang_or_crash_costs_only_its_structure() {
    let tmp = tempfile::Builder::new()
        .prefix("clefeval-pool-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let good = gold_texts();
    let mut texts = Vec::new();
    for (i, text) in good.iter().take(6).enumerate() {
        texts.push(text.clone());
        if i == 1 || i == 4 {
            texts.push(format!("HANG{text}"));
        }
        if i == 2 {
            texts.push(format!("CRASH{text}"));
        }
        if i == 4 {
            texts.push(alkane(250));
        }
    }
    assert!(texts.iter().any(|t| t.len() > 16 * 1024));
    let chain = inchi::convert(&alkane(250)).unwrap().inchi;
    assert!(chain.starts_with("InChI=1S/C250H502/c1-3-5-7-"), "{chain}");
    for jobs in [1, 3] {
        let started = std::time::Instant::now();
        let got = pool(faulty_worker(dir), jobs, Duration::from_millis(1500))
            .convert_all(&texts, &|| {})
            .unwrap();
        // Two hangs of 1.5 s each, not 60 s.
        assert!(started.elapsed() < Duration::from_secs(30));
        assert_eq!(got.len(), texts.len());
        for (text, result) in texts.iter().zip(&got) {
            if text.starts_with("HANG") {
                assert_eq!(
                    result.as_ref().unwrap_err(),
                    "the InChI library took longer than the 1.5 s timeout; its worker was stopped"
                );
            } else if text.starts_with("CRASH") {
                let reason = result.as_ref().unwrap_err();
                assert!(
                    reason.starts_with("the InChI worker died on this structure (signal: 11"),
                    "{reason}"
                );
            } else {
                assert_eq!(result, &inchi::convert(text), "jobs {jobs}");
            }
        }
    }
}

#[test]
fn a_worker_that_cannot_start_is_an_error() {
    let command = WorkerCommand::clefeval("/nonexistent/clefeval");
    let err = pool(command, 2, Duration::from_secs(1))
        .convert_all(&gold_texts(), &|| {})
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("cannot start the InChI worker /nonexistent/clefeval: "),
        "{err}"
    );
}

#[test]
fn serve_answers_one_line_per_request() {
    let water = "\n  x\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0\nM  END\n";
    let input = format!("{}\nnot json\n", serde_json::to_string(water).unwrap());
    let mut output = Vec::new();
    serve(input.as_bytes(), &mut output).unwrap();
    let lines: Vec<&str> = std::str::from_utf8(&output).unwrap().lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0],
        r#"{"Ok":{"inchi":"InChI=1S/H2O/h1H2","warning":null}}"#
    );
    assert!(lines[1].starts_with(r#"{"Err":"bad request to the InChI worker: "#));
}
