#ifndef MUSTER_WEB_APP_H
#define MUSTER_WEB_APP_H

/// One file of the web app: its path under `app/` and its bytes, as compiled into the binary.
typedef struct {
    const char *path;
    const unsigned char *bytes;
    unsigned long length;
} web_app_file;

/// Every file of the web app; `count` is set to how many.
const web_app_file *web_app_files(unsigned long *count);

#endif
