// PLACEHOLDER: VS Code client entry (issue 6).
export function activate(): void {}
export function deactivate(): void {}
