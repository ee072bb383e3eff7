#ifndef RAWCAP_FAKEUSB_UMOCKDEV_API_H
#define RAWCAP_FAKEUSB_UMOCKDEV_API_H

// The part of libumockdev 0.17 (and GLib) that the fake device uses, resolved with dlopen/dlsym so that nothing
// links against it: a program built with this code starts on machines without umockdev. The prototypes follow
// /usr/include/umockdev-1.0/umockdev.h; the objects stay opaque (the data inside a UMockdevIoctlData is reached
// through the public fields of UMockdevIoctlData, which umockdev.h documents for C handlers).

#include <stddef.h>
#include <stdint.h>

typedef struct _UMockdevTestbed UMockdevTestbed;
typedef struct _UMockdevIoctlBase UMockdevIoctlBase;
typedef struct _UMockdevIoctlClient UMockdevIoctlClient;

/// GLib's GObject instance header (GTypeInstance, ref count, qdata).
typedef struct {
    void *g_class;
    unsigned int ref_count;
    void *qdata;
} fu_gobject;

/// umockdev.h's `struct _UMockdevIoctlData`: a local copy of client memory that umockdev writes back to the client
/// when the ioctl completes (only the bytes that changed since they were loaded).
typedef struct _UMockdevIoctlData {
    fu_gobject parent_instance;
    uint8_t *data;
    int data_len;
    unsigned long client_addr;
    void *priv;
} UMockdevIoctlData;

/// GLib's public GError layout.
typedef struct {
    uint32_t domain;
    int code;
    char *message;
} fu_gerror;

typedef struct {
    // libumockdev.so.0
    UMockdevTestbed *(*testbed_new)(void);
    char *(*testbed_get_root_dir)(UMockdevTestbed *self);
    int (*testbed_add_from_string)(UMockdevTestbed *self, const char *data, fu_gerror **error);
    int (*testbed_attach_ioctl)(UMockdevTestbed *self, const char *dev, UMockdevIoctlBase *handler, fu_gerror **error);
    /// umockdev_testbed_remove_device; NULL in a umockdev without it (devices then stay listed once unplugged).
    void (*testbed_remove_device)(UMockdevTestbed *self, const char *syspath);
    int (*in_mock_environment)(void);
    UMockdevIoctlBase *(*ioctl_base_new)(void);
    unsigned long (*client_get_request)(UMockdevIoctlClient *self);
    UMockdevIoctlData *(*client_get_arg)(UMockdevIoctlClient *self);
    int (*client_get_connected)(UMockdevIoctlClient *self);
    void (*client_complete)(UMockdevIoctlClient *self, long result, int error_number);
    UMockdevIoctlData *(*data_resolve)(UMockdevIoctlData *self, size_t offset, size_t length, fu_gerror **error);
    int (*data_set_ptr)(UMockdevIoctlData *self, size_t offset, UMockdevIoctlData *child);
    // libgobject-2.0.so.0
    void *(*object_ref)(void *object);
    void (*object_unref)(void *object);
    unsigned long (*signal_connect_data)(
        void *instance, const char *signal, void (*handler)(void), void *data, void *destroy, int flags);
    // libglib-2.0.so.0
    void (*free)(void *memory);
    void (*error_free)(fu_gerror *error);
} fu_umockdev_api;

/// The loaded functions, or NULL with a message in `error` when libumockdev or GLib cannot be loaded.
const fu_umockdev_api *fu_umockdev(char *error, size_t error_length);

#endif
