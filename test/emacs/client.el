;;; client.el --- drives Emacs 28 + eglot as an LSP client of Rollout Lens, headless -*- lexical-binding: t -*-
;; Run by emacs.test.ts as `emacs --batch -l <init> -l client.el`; <init> is init.el (the set-up of
;; docs/editors.md) with the server's path filled in. Everything else comes in through the
;; environment:
;;   RL_FILES     logs to open, separated by newlines
;;   RL_EXPECTED  JSON object: log path -> sorted lines "code<TAB>line0<TAB>severity<TAB>message"
;;   RL_FIX_LOG   log whose quick fix is applied; RL_FIX_CODE the diagnostic code to fix there
;;   RL_FIX_TITLE the code action to choose (its title starts with this)
;;   RL_CONFIG    the eval config the fix edits (visited first, then saved)
;;   RL_SYMBOLS   log whose document symbols are listed
;;   RL_EDIT_LOG  (optional) log edited last, then saved: line RL_EDIT_LINE (1-based), its text
;;                RL_EDIT_FROM replaced by RL_EDIT_TO; then RL_METRICS (a metrics log among
;;                RL_FILES) must show RL_AFTER (a JSON list of lines as in RL_EXPECTED)
;;   RL_OUT       file the JSON result is written to     RL_WAIT_MS  bound on every wait
;; Every wait is bounded; on a timeout what was received so far is written, so the test shows it.
(require 'cl-lib)
(require 'json)
(require 'imenu)

(defvar rl-wait (/ (string-to-number (or (getenv "RL_WAIT_MS") "20000")) 1000.0))
(defvar rl-result nil "Alist written to RL_OUT as JSON.")

(defun rl-note (key value) (setq rl-result (cons (cons key value) (assq-delete-all key rl-result))))

(defun rl-pump (buffers)
  "One turn of a user looking at each of BUFFERS in turn: what the command loop and redisplay
would run (the buffer shown, its window and post-command hooks), then read the server."
  (dolist (b buffers)
    (when (buffer-live-p b)
      (switch-to-buffer b)
      (with-current-buffer b
        (run-hooks 'window-configuration-change-hook)
        (run-hooks 'post-command-hook))))
  (accept-process-output nil 0.05))

(defun rl-wait-until (buffers pred)
  "Pump until PRED returns non-nil or the bound passes; PRED's last value."
  (let ((deadline (+ (float-time) rl-wait)) (v nil))
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline)) (rl-pump buffers))
    v))

(defun rl-diagnostics (buffer)
  "BUFFER's diagnostics as eglot handed them to Flymake, as sorted canonical lines."
  (with-current-buffer buffer
    (sort (mapcar (lambda (d)
                    (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))))
                      (format "%s\t%s\t%s\t%s" (plist-get lsp :code)
                              (plist-get (plist-get (plist-get lsp :range) :start) :line)
                              (plist-get lsp :severity) (plist-get lsp :message))))
                  (flymake-diagnostics))
          #'string<)))

(defun rl-lsp-diagnostic (buffer code)
  "The first diagnostic of BUFFER with CODE: (flymake-diagnostic . lsp-plist)."
  (with-current-buffer buffer
    (cl-loop for d in (flymake-diagnostics)
             for lsp = (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))
             when (equal (plist-get lsp :code) code) return (cons d lsp))))

(defun rl-write ()
  (with-temp-file (getenv "RL_OUT") (insert (json-encode rl-result))))

(defun rl-run ()
  (let* ((files (split-string (getenv "RL_FILES") "\n" t))
         (expected (json-parse-string (getenv "RL_EXPECTED")))
         (buffers nil))
    ;; Open every log as a user would; eglot-ensure connects on the next command.
    (dolist (f files)
      (let ((b (find-file-noselect f)))
        (switch-to-buffer b)
        (push b buffers)))
    (setq buffers (nreverse buffers))
    (unless (rl-wait-until buffers (lambda () (cl-every (lambda (b) (buffer-local-value 'eglot--managed-mode b)) buffers)))
      (error "eglot did not manage every log within the bound"))
    ;; Diagnostics: wait until each log shows what `check' found there (or the bound passes).
    (rl-wait-until buffers
                   (lambda () (cl-every (lambda (b) (equal (rl-diagnostics b)
                                                           (append (gethash (buffer-file-name b) expected) nil)))
                                        buffers)))
    (rl-note 'diagnostics (mapcar (lambda (b) (cons (buffer-file-name b) (vconcat (rl-diagnostics b)))) buffers))
    (rl-note 'capabilities
             (with-current-buffer (car buffers)
               (let ((caps (eglot--capabilities (eglot--current-server-or-lose))))
                 (list (cons 'hover (if (plist-get caps :hoverProvider) t :json-false))))))
    (rl-note 'servers (length (hash-table-values eglot--servers-by-project)))
    ;; Hover through eldoc's documentation function, on the line of the fixed log's diagnostic.
    (let* ((fix-buffer (find-buffer-visiting (getenv "RL_FIX_LOG")))
           (diag (or (rl-lsp-diagnostic fix-buffer (getenv "RL_FIX_CODE"))
                     (error "no %s diagnostic in %s" (getenv "RL_FIX_CODE") (getenv "RL_FIX_LOG"))))
           (hover nil))
      (switch-to-buffer fix-buffer)
      (with-current-buffer fix-buffer
        (goto-char (flymake-diagnostic-beg (car diag)))
        (eglot-hover-eldoc-function (lambda (info &rest _) (setq hover (or info "")))))
      (rl-wait-until (list fix-buffer) (lambda () hover))
      (rl-note 'hover (or hover :json-false))
      ;; The quick fix: the config is visited (so eglot edits its buffer without asking), the user
      ;; picks the action from the list `eglot-code-actions' offers, and saves the config.
      (let ((config (find-file-noselect (getenv "RL_CONFIG")))
            (title nil))
        (with-current-buffer fix-buffer
          (let ((beg (flymake-diagnostic-beg (car diag))) (end (flymake-diagnostic-end (car diag))))
            (cl-letf (((symbol-function 'completing-read)
                       (lambda (_prompt collection &rest _)
                         (rl-note 'offered (vconcat (mapcar #'car collection)))
                         (setq title (cl-find-if (lambda (c) (string-prefix-p (getenv "RL_FIX_TITLE") c))
                                                 (mapcar #'car collection))))))
              ;; Invoked from the keyboard (M-x), so eglot asks in the minibuffer, not a popup menu.
              (let ((last-nonmenu-event ?\C-m)) (eglot-code-actions beg end nil t)))))
        (rl-note 'fixTitle (or title :json-false))
        (with-current-buffer config (save-buffer))
        (rl-note 'configModified (if (buffer-modified-p config) t :json-false))))
    ;; Document symbols, as imenu lists them.
    (with-current-buffer (find-buffer-visiting (getenv "RL_SYMBOLS"))
      (let ((names nil))
        (cl-labels ((walk (entries)
                      (dolist (e entries)
                        (if (imenu--subalist-p e) (walk (cdr e)) (push (car e) names)))))
          (walk (eglot-imenu)))
        (rl-note 'symbols (vconcat (sort names #'string<)))))
    ;; The run-level step: the eval dump edited and saved as a user would; the metrics log (checked
    ;; by another server, which sees the file change on disk) shows the edited run's findings.
    (when (getenv "RL_EDIT_LOG")
      (let ((log (find-buffer-visiting (getenv "RL_EDIT_LOG")))
            (metrics (find-buffer-visiting (getenv "RL_METRICS")))
            (after (append (json-parse-string (getenv "RL_AFTER")) nil)))
        (with-current-buffer log
          (goto-char (point-min))
          (forward-line (1- (string-to-number (getenv "RL_EDIT_LINE"))))
          (unless (search-forward (getenv "RL_EDIT_FROM") (line-end-position) t)
            (error "line %s of %s has no %s" (getenv "RL_EDIT_LINE") (getenv "RL_EDIT_LOG") (getenv "RL_EDIT_FROM")))
          (replace-match (getenv "RL_EDIT_TO") t t)
          (save-buffer))
        (rl-wait-until buffers (lambda () (equal (rl-diagnostics metrics) after)))
        (rl-note 'afterEdit (vconcat (rl-diagnostics metrics)))))))

(condition-case err
    (progn (rl-run) (rl-write) (eglot-shutdown-all) (kill-emacs 0))
  (error (rl-note 'error (error-message-string err)) (rl-write) (kill-emacs 1)))
