;;; urlls-test.el --- batch test of the eglot snippet of editors/README.md  -*- lexical-binding: t -*-

;; Run through editors/emacs/run.sh, or by hand from the repository root:
;;   URLLS_BIN=/path/to/urlls emacs -Q --batch -l editors/emacs/urlls-test.el
;;
;; Emacs 28.2 (Debian's emacs-nox) with Debian's elpa-eglot 1.9 and
;; elpa-markdown-mode. The test evaluates the Emacs block of
;; editors/README.md as it is written there (marked by the line
;; "<!-- snippet: emacs-eglot -->"), with the directory of URLLS_BIN first on
;; PATH so that its "urlls" is that binary, then: opens a Markdown file in
;; markdown-mode, starts eglot, waits for Flymake to show the bad-escape
;; error and not the redundant-escape hint the snippet's settings turn off,
;; hovers the port (the hover names the production `port'), applies the
;; source.fixAll.urlls code action, waits for the diagnostics to go, and
;; shuts the server down.  It prints one line per check and last
;; "emacs: N passed, M failed"; it exits 1 on the first failure.

(require 'package)
;; Under -Q Debian's site-start is skipped and `package-directory-list' is
;; nil: add the directory of the elpa-* packages ourselves.
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'cl-lib)
(require 'subr-x)
(require 'flymake)

(defvar html-mode-hook)                 ; sgml-mode's, set by the snippet
(defvar urlls-test-passed 0)
(defvar urlls-test-timeout (string-to-number (or (getenv "URLLS_TIMEOUT_S") "10")))
(defvar urlls-test-root
  (expand-file-name "../.." (file-name-directory (or load-file-name buffer-file-name))))

(defun urlls-test-out (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n") #'external-debugging-output))

(defun urlls-test-fail (fmt &rest args)
  (urlls-test-out "FAIL: %s" (apply #'format fmt args))
  (urlls-test-out "emacs: %d passed, 1 failed" urlls-test-passed)
  (kill-emacs 1))

(defmacro urlls-check (name cond &optional detail)
  "Count the check NAME as passed if COND is non-nil, else fail with DETAIL."
  `(if ,cond
       (progn (setq urlls-test-passed (1+ urlls-test-passed))
              (urlls-test-out "ok   %s" ,name))
     (urlls-test-fail "%s%s" ,name (let ((d ,detail)) (if d (format ": %s" d) "")))))

(defun urlls-test-wait (what pred)
  "Spin the event loop until PRED returns non-nil; fail after the timeout."
  (let ((deadline (+ (float-time) urlls-test-timeout)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (or v (urlls-test-fail "timed out after %ss waiting for %s" urlls-test-timeout what))))

(defun urlls-test-snippet (name)
  "The code block after the marker <!-- snippet: NAME --> in editors/README.md."
  (with-temp-buffer
    (insert-file-contents (expand-file-name "editors/README.md" urlls-test-root))
    (goto-char (point-min))
    (unless (search-forward (format "<!-- snippet: %s -->" name) nil t)
      (urlls-test-fail "no snippet %s in editors/README.md" name))
    (forward-line 1)
    (unless (looking-at "```")
      (urlls-test-fail "snippet %s: no code block after the marker" name))
    (forward-line 1)
    (let ((start (point)))
      (unless (re-search-forward "^```$" nil t)
        (urlls-test-fail "snippet %s: the code block does not end" name))
      (buffer-substring-no-properties start (match-beginning 0)))))

(defun urlls-test-diags ()
  "The Flymake diagnostics of the buffer as (TEXT TYPE BEG END), by position."
  (sort (mapcar (lambda (d) (list (flymake-diagnostic-text d) (flymake-diagnostic-type d)
                                  (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))
                (flymake-diagnostics))
        (lambda (a b) (< (nth 2 a) (nth 2 b)))))

(defun urlls-test-has (diags code)
  (cl-find-if (lambda (d) (string-match-p (regexp-quote (format "[%s]" code)) (car d))) diags))

(defun urlls-test-run ()
  (let* ((bin (or (getenv "URLLS_BIN") (urlls-test-fail "set URLLS_BIN to the urlls binary")))
         (bindir (file-name-directory (expand-file-name bin)))
         (dir (file-name-as-directory (make-temp-file "urlls-eglot" t)))
         (file (expand-file-name "doc.md" dir))
         ;; Line 3: "See http://example.org:8080/a" is 29 characters, so the
         ;; port 8080 is at columns 23-27 and the bad "%zz" at 29-32.
         ;; Line 5: "%41" is a redundant escape (a hint, turned off).
         (text (concat "# urlls eglot test\n\n"
                       "See http://example.org:8080/a%zz for details.\n\n"
                       "Redundant: http://example.org/%41BC\n")))
    (urlls-test-out "emacs %s, eglot %s, server %s" emacs-version
                    (if-let ((d (cadr (assq 'eglot package-alist))))
                        (package-version-join (package-desc-version d))
                      "?")
                    bin)
    (unless (file-executable-p bin) (urlls-test-fail "URLLS_BIN is not executable: %s" bin))
    (setenv "PATH" (concat bindir path-separator (getenv "PATH")))
    (setq exec-path (cons (directory-file-name bindir) exec-path))
    (urlls-check "\"urlls\" on PATH is URLLS_BIN"
                 (file-equal-p (executable-find "urlls") bin) (executable-find "urlls"))

    ;; 1. The snippet, as the README has it.
    (let ((snippet (urlls-test-snippet "emacs-eglot")))
      (with-temp-buffer
        (insert snippet)
        (eval-buffer)))
    (urlls-check "the snippet evaluates (eglot not loaded yet)" (not (featurep 'eglot)))
    (require 'eglot)
    (urlls-check "loading eglot runs the snippet's with-eval-after-load"
                 (equal (cdr (car eglot-server-programs)) '("urlls"))
                 (format "%S" (car eglot-server-programs)))
    (urlls-check "eglot-ensure is on markdown-mode-hook and html-mode-hook"
                 (and (memq #'eglot-ensure markdown-mode-hook) (memq #'eglot-ensure html-mode-hook)))
    (urlls-check "markdown-mode is installed" (require 'markdown-mode nil t)
                 "install Debian's elpa-markdown-mode")

    ;; 2. A Markdown file, eglot started as eglot-ensure would (its
    ;; post-command-hook never runs in --batch).
    (with-temp-file file (insert text))
    (setq eglot-sync-connect t
          eglot-connect-timeout urlls-test-timeout)
    (find-file file)
    (urlls-check "doc.md opens in markdown-mode" (eq major-mode 'markdown-mode) major-mode)
    (let ((contact (eglot--guess-contact)))
      (urlls-check "eglot guesses the urlls contact with language id markdown"
                   (and (equal (nth 3 contact) '("urlls")) (equal (nth 4 contact) "markdown"))
                   (format "%S" contact))
      (apply #'eglot contact))
    (let ((server (eglot-current-server)))
      (urlls-check "eglot manages the buffer" (and server eglot--managed-mode))
      (urlls-check "the server offers hover and code actions"
                   (and (eglot--server-capable :hoverProvider) (eglot--server-capable :codeActionProvider)))
      (unless (bound-and-true-p flymake-mode) (flymake-mode 1))

      ;; 3. Diagnostics through Flymake, with the snippet's settings.
      (let ((diags (urlls-test-wait
                    "a bad-escape diagnostic and no redundant-escape one"
                    (lambda ()
                      (let ((ds (urlls-test-diags)))
                        (and (urlls-test-has ds "bad-escape") (not (urlls-test-has ds "redundant-escape"))
                             ds))))))
        (dolist (d diags) (urlls-test-out "  flymake: %S" d))
        (let ((be (urlls-test-has diags "bad-escape"))
              (beg (save-excursion (goto-char (point-min)) (forward-line 2) (+ (point) 29))))
          (urlls-check "bad-escape: an error on the \"%zz\" (line 3, columns 29-32)"
                       (and (eq (nth 1 be) 'eglot-error) (= (nth 2 be) beg) (= (nth 3 be) (+ beg 3))
                            (string-match-p "^urlls \\[bad-escape\\]: \"%zz\" is not an escape" (car be)))
                       (format "%S" be)))
        (urlls-check "only that one: the redundant-escape hint is off (the snippet's settings)"
                     (= (length diags) 1) (format "%S" diags)))

      ;; 4. Hover on the port.
      (goto-char (point-min)) (forward-line 2) (forward-char 24)
      (let* ((hover (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)
                                     :timeout urlls-test-timeout))
             (contents (plist-get hover :contents))
             (value (if (stringp contents) contents (or (plist-get contents :value) ""))))
        (urlls-test-out "  hover (%s): %S" (or (plist-get contents :kind) "string") value)
        (urlls-check "hover names the production port"
                     (string-match-p "\\bport\\b" value) value)
        (urlls-check "hover shows the matched 8080" (string-match-p "8080" value) value))

      ;; 5. Fix all: the source.fixAll.urlls code action, applied by eglot.
      (let* ((actions (jsonrpc-request
                       server :textDocument/codeAction
                       (list :textDocument (eglot--TextDocumentIdentifier)
                             :range (list :start (eglot--pos-to-lsp-position (point-min))
                                          :end (eglot--pos-to-lsp-position (point-max)))
                             :context (list :diagnostics [] :only ["source.fixAll.urlls"]))
                       :timeout urlls-test-timeout))
             (fix (cl-find-if (lambda (a) (equal (plist-get a :kind) "source.fixAll.urlls"))
                              (append actions nil))))
        (urlls-check "a source.fixAll.urlls action is offered" fix (format "%S" actions))
        (urlls-test-out "  action: %s" (plist-get fix :title))
        (eglot--apply-workspace-edit (plist-get fix :edit))
        (urlls-check "the bad \"%\" is encoded"
                     (save-excursion (goto-char (point-min))
                                     (search-forward "http://example.org:8080/a%25zz for" nil t))
                     (buffer-string))
        ;; eglot sends the change from an idle timer, which --batch never runs.
        (eglot--signal-textDocument/didChange)
        (urlls-test-wait "the diagnostics to go" (lambda () (null (flymake-diagnostics))))
        (urlls-check "no diagnostics left" t))

      ;; 6. Shutdown. `eglot-shutdown' sends shutdown and exit, then deletes
      ;; the process at once (jsonrpc's `jsonrpc-shutdown'), which kills a
      ;; server that has not exited yet: to see how the server ends, send
      ;; the two messages here and let its own exit end the connection.
      (urlls-check "shutdown is answered"
                   (condition-case e
                       (progn (jsonrpc-request server :shutdown nil :timeout urlls-test-timeout) t)
                     (error (urlls-test-fail "shutdown: %S" e))))
      (setf (eglot--shutdown-requested server) t)
      (jsonrpc-notify server :exit nil)
      (urlls-test-wait "the server to exit" (lambda () (not (process-live-p (jsonrpc--process server)))))
      (let ((proc (jsonrpc--process server)))
        (urlls-check "the server exited by itself, with status 0"
                     (and (eq (process-status proc) 'exit) (eql (process-exit-status proc) 0))
                     (format "%S %S" (process-status proc) (process-exit-status proc))))
      (urlls-test-wait "eglot to let go of the buffer" (lambda () (not eglot--managed-mode)))
      (urlls-check "eglot no longer manages the buffer" (null (eglot-current-server))))
    (set-buffer-modified-p nil)
    (delete-directory dir t)))

(condition-case err
    (progn
      (urlls-test-run)
      (urlls-test-out "emacs: %d passed, 0 failed" urlls-test-passed)
      (kill-emacs 0))
  (error (urlls-test-fail "error: %S" err)))

;;; urlls-test.el ends here
