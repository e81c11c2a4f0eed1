//! Chemical structure recognition (SPEC §4): MOL files to Standard InChI in
//! isolated worker processes, outcomes per gold structure, the review page.
