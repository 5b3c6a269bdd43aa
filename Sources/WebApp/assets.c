// Written by Tools/web-assets from the files under app/: run it again after adding or removing one.
// C23's #embed compiles each file in as bytes, fast, and the target is rebuilt whenever one of them changes.
#include "WebApp.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char file_0[] = {
#embed "app/css/app.css"
};
static const unsigned char file_1[] = {
#embed "app/icon.svg"
};
static const unsigned char file_2[] = {
#embed "app/index.html"
};
static const unsigned char file_3[] = {
#embed "app/js/api.js"
};
static const unsigned char file_4[] = {
#embed "app/js/app.js"
};
static const unsigned char file_5[] = {
#embed "app/js/console/routes.js"
};
static const unsigned char file_6[] = {
#embed "app/js/dom.js"
};
static const unsigned char file_7[] = {
#embed "app/js/person/inbox.js"
};
static const unsigned char file_8[] = {
#embed "app/js/person/login.js"
};
static const unsigned char file_9[] = {
#embed "app/js/person/routes.js"
};
static const unsigned char file_10[] = {
#embed "app/js/texts.js"
};
static const unsigned char file_11[] = {
#embed "app/manifest.webmanifest"
};
static const unsigned char file_12[] = {
#embed "app/sw.js"
};

static const web_app_file files[] = {
    {"css/app.css", file_0, sizeof(file_0)},
    {"icon.svg", file_1, sizeof(file_1)},
    {"index.html", file_2, sizeof(file_2)},
    {"js/api.js", file_3, sizeof(file_3)},
    {"js/app.js", file_4, sizeof(file_4)},
    {"js/console/routes.js", file_5, sizeof(file_5)},
    {"js/dom.js", file_6, sizeof(file_6)},
    {"js/person/inbox.js", file_7, sizeof(file_7)},
    {"js/person/login.js", file_8, sizeof(file_8)},
    {"js/person/routes.js", file_9, sizeof(file_9)},
    {"js/texts.js", file_10, sizeof(file_10)},
    {"manifest.webmanifest", file_11, sizeof(file_11)},
    {"sw.js", file_12, sizeof(file_12)},
};

const web_app_file *web_app_files(unsigned long *count) {
    *count = sizeof(files) / sizeof(files[0]);
    return files;
}
