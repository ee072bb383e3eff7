#include "umockdev_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static fu_umockdev_api api;
static int api_state;  // 0 not tried, 1 loaded, -1 failed
static char api_error[512];
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void *need(void *library, const char *library_name, const char *symbol, int *ok) {
    void *address = dlsym(library, symbol);
    if (address == NULL && *ok) {
        snprintf(api_error, sizeof api_error, "%s has no %s (umockdev 0.17 or newer is needed)", library_name, symbol);
        *ok = 0;
    }
    return address;
}

static void load(void) {
    // libumockdev.so.0 ships in Debian's libumockdev0, a dependency of the umockdev package; it pulls GLib in.
    void *umockdev = dlopen("libumockdev.so.0", RTLD_NOW | RTLD_LOCAL);
    if (umockdev == NULL) {
        snprintf(api_error, sizeof api_error,
                 "cannot load libumockdev.so.0 (%s); install the umockdev package (apt-get install umockdev)",
                 dlerror());
        api_state = -1;
        return;
    }
    void *gobject = dlopen("libgobject-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    void *glib = dlopen("libglib-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (gobject == NULL || glib == NULL) {
        snprintf(api_error, sizeof api_error, "cannot load GLib (%s)", dlerror());
        api_state = -1;
        return;
    }
    int ok = 1;
    const char *u = "libumockdev.so.0";
    *(void **)&api.testbed_new = need(umockdev, u, "umockdev_testbed_new", &ok);
    *(void **)&api.testbed_get_root_dir = need(umockdev, u, "umockdev_testbed_get_root_dir", &ok);
    *(void **)&api.testbed_add_from_string = need(umockdev, u, "umockdev_testbed_add_from_string", &ok);
    *(void **)&api.testbed_attach_ioctl = need(umockdev, u, "umockdev_testbed_attach_ioctl", &ok);
    *(void **)&api.testbed_remove_device = dlsym(umockdev, "umockdev_testbed_remove_device");
    *(void **)&api.in_mock_environment = need(umockdev, u, "umockdev_in_mock_environment", &ok);
    *(void **)&api.ioctl_base_new = need(umockdev, u, "umockdev_ioctl_base_new", &ok);
    *(void **)&api.client_get_request = need(umockdev, u, "umockdev_ioctl_client_get_request", &ok);
    *(void **)&api.client_get_arg = need(umockdev, u, "umockdev_ioctl_client_get_arg", &ok);
    *(void **)&api.client_get_connected = need(umockdev, u, "umockdev_ioctl_client_get_connected", &ok);
    *(void **)&api.client_complete = need(umockdev, u, "umockdev_ioctl_client_complete", &ok);
    *(void **)&api.data_resolve = need(umockdev, u, "umockdev_ioctl_data_resolve", &ok);
    *(void **)&api.data_set_ptr = need(umockdev, u, "umockdev_ioctl_data_set_ptr", &ok);
    *(void **)&api.object_ref = need(gobject, "libgobject-2.0.so.0", "g_object_ref", &ok);
    *(void **)&api.object_unref = need(gobject, "libgobject-2.0.so.0", "g_object_unref", &ok);
    *(void **)&api.signal_connect_data = need(gobject, "libgobject-2.0.so.0", "g_signal_connect_data", &ok);
    *(void **)&api.free = need(glib, "libglib-2.0.so.0", "g_free", &ok);
    *(void **)&api.error_free = need(glib, "libglib-2.0.so.0", "g_error_free", &ok);
    api_state = ok ? 1 : -1;
}

const fu_umockdev_api *fu_umockdev(char *error, size_t error_length) {
    pthread_once(&api_once, load);
    if (api_state == 1) return &api;
    if (error != NULL && error_length > 0) snprintf(error, error_length, "%s", api_error);
    return NULL;
}
