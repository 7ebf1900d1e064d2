"""Reading one RFC 5322 / MIME message (RFC 2045-2049): headers, bodies, attachments, HTML parts.

Reading a message is reading a document, so this package sits inside :mod:`assistant.documents` and is used
both by the file readers (``.eml``, ``.mbox``, ``.msg``) and by :mod:`assistant.mail` (the IMAP side: sync,
cache, drafts). Nothing here imports :mod:`assistant.mail`.
"""
