// PLACEHOLDER: language server entry (issue 5).
export {};
