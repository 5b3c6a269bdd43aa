// Written by Tools/web-assets from the files under app/: run it again after adding or removing one.
// C23's #embed compiles each file in as bytes, fast, and the target is rebuilt whenever one of them changes.
#include "WebApp.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char file_0[] = {
#embed "app/css/app.css"
};
static const unsigned char file_1[] = {
#embed "app/css/console.css"
};
static const unsigned char file_2[] = {
#embed "app/css/form.css"
};
static const unsigned char file_3[] = {
#embed "app/css/person.css"
};
static const unsigned char file_4[] = {
#embed "app/icon.svg"
};
static const unsigned char file_5[] = {
#embed "app/index.html"
};
static const unsigned char file_6[] = {
#embed "app/js/api.js"
};
static const unsigned char file_7[] = {
#embed "app/js/app.js"
};
static const unsigned char file_8[] = {
#embed "app/js/config.js"
};
static const unsigned char file_9[] = {
#embed "app/js/console/areas.js"
};
static const unsigned char file_10[] = {
#embed "app/js/console/audit.js"
};
static const unsigned char file_11[] = {
#embed "app/js/console/common.js"
};
static const unsigned char file_12[] = {
#embed "app/js/console/fields.js"
};
static const unsigned char file_13[] = {
#embed "app/js/console/geotriggers.js"
};
static const unsigned char file_14[] = {
#embed "app/js/console/map.js"
};
static const unsigned char file_15[] = {
#embed "app/js/console/people.js"
};
static const unsigned char file_16[] = {
#embed "app/js/console/push.js"
};
static const unsigned char file_17[] = {
#embed "app/js/console/routes.js"
};
static const unsigned char file_18[] = {
#embed "app/js/console/send.js"
};
static const unsigned char file_19[] = {
#embed "app/js/console/sends.js"
};
static const unsigned char file_20[] = {
#embed "app/js/console/settings.js"
};
static const unsigned char file_21[] = {
#embed "app/js/dom.js"
};
static const unsigned char file_22[] = {
#embed "app/js/form/barcode.js"
};
static const unsigned char file_23[] = {
#embed "app/js/form/camera.js"
};
static const unsigned char file_24[] = {
#embed "app/js/form/capture.js"
};
static const unsigned char file_25[] = {
#embed "app/js/form/display.js"
};
static const unsigned char file_26[] = {
#embed "app/js/form/form.js"
};
static const unsigned char file_27[] = {
#embed "app/js/form/inputs.js"
};
static const unsigned char file_28[] = {
#embed "app/js/form/map.js"
};
static const unsigned char file_29[] = {
#embed "app/js/form/markup.js"
};
static const unsigned char file_30[] = {
#embed "app/js/form/rules.js"
};
static const unsigned char file_31[] = {
#embed "app/js/form/shell.js"
};
static const unsigned char file_32[] = {
#embed "app/js/handoff.js"
};
static const unsigned char file_33[] = {
#embed "app/js/map-tiles.js"
};
static const unsigned char file_34[] = {
#embed "app/js/offline/database.js"
};
static const unsigned char file_35[] = {
#embed "app/js/offline/outbox.js"
};
static const unsigned char file_36[] = {
#embed "app/js/password-form.js"
};
static const unsigned char file_37[] = {
#embed "app/js/person/documents.js"
};
static const unsigned char file_38[] = {
#embed "app/js/person/inbox.js"
};
static const unsigned char file_39[] = {
#embed "app/js/person/login.js"
};
static const unsigned char file_40[] = {
#embed "app/js/person/message.js"
};
static const unsigned char file_41[] = {
#embed "app/js/person/password.js"
};
static const unsigned char file_42[] = {
#embed "app/js/person/profile.js"
};
static const unsigned char file_43[] = {
#embed "app/js/person/routes.js"
};
static const unsigned char file_44[] = {
#embed "app/js/person/sessions.js"
};
static const unsigned char file_45[] = {
#embed "app/js/person/signin.js"
};
static const unsigned char file_46[] = {
#embed "app/js/person/start.js"
};
static const unsigned char file_47[] = {
#embed "app/js/push.js"
};
static const unsigned char file_48[] = {
#embed "app/js/texts.js"
};
static const unsigned char file_49[] = {
#embed "app/manifest.webmanifest"
};
static const unsigned char file_50[] = {
#embed "app/sw.js"
};

static const web_app_file files[] = {
    {"css/app.css", file_0, sizeof(file_0)},
    {"css/console.css", file_1, sizeof(file_1)},
    {"css/form.css", file_2, sizeof(file_2)},
    {"css/person.css", file_3, sizeof(file_3)},
    {"icon.svg", file_4, sizeof(file_4)},
    {"index.html", file_5, sizeof(file_5)},
    {"js/api.js", file_6, sizeof(file_6)},
    {"js/app.js", file_7, sizeof(file_7)},
    {"js/config.js", file_8, sizeof(file_8)},
    {"js/console/areas.js", file_9, sizeof(file_9)},
    {"js/console/audit.js", file_10, sizeof(file_10)},
    {"js/console/common.js", file_11, sizeof(file_11)},
    {"js/console/fields.js", file_12, sizeof(file_12)},
    {"js/console/geotriggers.js", file_13, sizeof(file_13)},
    {"js/console/map.js", file_14, sizeof(file_14)},
    {"js/console/people.js", file_15, sizeof(file_15)},
    {"js/console/push.js", file_16, sizeof(file_16)},
    {"js/console/routes.js", file_17, sizeof(file_17)},
    {"js/console/send.js", file_18, sizeof(file_18)},
    {"js/console/sends.js", file_19, sizeof(file_19)},
    {"js/console/settings.js", file_20, sizeof(file_20)},
    {"js/dom.js", file_21, sizeof(file_21)},
    {"js/form/barcode.js", file_22, sizeof(file_22)},
    {"js/form/camera.js", file_23, sizeof(file_23)},
    {"js/form/capture.js", file_24, sizeof(file_24)},
    {"js/form/display.js", file_25, sizeof(file_25)},
    {"js/form/form.js", file_26, sizeof(file_26)},
    {"js/form/inputs.js", file_27, sizeof(file_27)},
    {"js/form/map.js", file_28, sizeof(file_28)},
    {"js/form/markup.js", file_29, sizeof(file_29)},
    {"js/form/rules.js", file_30, sizeof(file_30)},
    {"js/form/shell.js", file_31, sizeof(file_31)},
    {"js/handoff.js", file_32, sizeof(file_32)},
    {"js/map-tiles.js", file_33, sizeof(file_33)},
    {"js/offline/database.js", file_34, sizeof(file_34)},
    {"js/offline/outbox.js", file_35, sizeof(file_35)},
    {"js/password-form.js", file_36, sizeof(file_36)},
    {"js/person/documents.js", file_37, sizeof(file_37)},
    {"js/person/inbox.js", file_38, sizeof(file_38)},
    {"js/person/login.js", file_39, sizeof(file_39)},
    {"js/person/message.js", file_40, sizeof(file_40)},
    {"js/person/password.js", file_41, sizeof(file_41)},
    {"js/person/profile.js", file_42, sizeof(file_42)},
    {"js/person/routes.js", file_43, sizeof(file_43)},
    {"js/person/sessions.js", file_44, sizeof(file_44)},
    {"js/person/signin.js", file_45, sizeof(file_45)},
    {"js/person/start.js", file_46, sizeof(file_46)},
    {"js/push.js", file_47, sizeof(file_47)},
    {"js/texts.js", file_48, sizeof(file_48)},
    {"manifest.webmanifest", file_49, sizeof(file_49)},
    {"sw.js", file_50, sizeof(file_50)},
};

const web_app_file *web_app_files(unsigned long *count) {
    *count = sizeof(files) / sizeof(files[0]);
    return files;
}
