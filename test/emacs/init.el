;; Rollout Lens in Emacs 28 with eglot (Debian 12: emacs-nox + elpa-eglot; docs/editors.md).
(require 'eglot)
;; Emacs 28 has no json-mode or js-json-mode: a small mode of its own for JSON Lines logs.
(define-derived-mode jsonl-mode prog-mode "JSONL"
  "Major mode for JSON Lines logs checked by Rollout Lens.")
(add-to-list 'auto-mode-alist '("\\.\\(jsonl\\|ndjson\\)\\'" . jsonl-mode))
(add-to-list 'eglot-server-programs
             '(jsonl-mode . ("node" "/path/to/rollout-lens/dist/server.js" "--stdio")))
;; Settings the server asks for (workspace/configuration, section rolloutLens).
(setq-default eglot-workspace-configuration
              '(:rolloutLens (:nSamplesPerPrompt 4
                              :dynamicFilter "check_reward_nonzero_std"
                              :nSamplesPerEvalPrompt 2)))
(add-hook 'jsonl-mode-hook #'eglot-ensure)
