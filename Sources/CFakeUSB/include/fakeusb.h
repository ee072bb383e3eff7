#ifndef RAWCAP_FAKEUSB_H
#define RAWCAP_FAKEUSB_H

// A fake USB still-image camera for libusb programs, built on umockdev's testbed and ioctl socket.
//
// The testbed (libumockdev, loaded at run time with dlopen, so that programs linking this code start without it)
// creates a sysfs tree and /dev/bus/usb nodes that processes running with libumockdev-preload see instead of the
// real ones. Each fake device answers usbdevfs ioctls on the umockdev worker thread: URBs are queued, filled packet
// by packet from the device's IN queues, and reaped by libusb. The camera's PTP behaviour lives elsewhere (Swift):
// it reads what the host wrote to bulk OUT, writes to bulk IN and interrupt IN, and answers class requests, from any
// thread, through the functions below. Nothing here blocks the umockdev worker thread.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A umockdev testbed: one per process at a time.
typedef struct fakeusb_testbed fakeusb_testbed;
/// One fake USB device in a testbed.
typedef struct fakeusb_device fakeusb_device;

/// Called (on any thread, never under the device lock) whenever the device side may make progress: the host wrote
/// to bulk OUT, read from an IN endpoint, cleared a halt, sent a class request, or the device was unplugged.
typedef void (*fakeusb_notify_fn)(void *context);

/// What a fake device looks like on the bus.
typedef struct {
    /// Bus number and device address: the node is /dev/bus/usb/BBB/DDD.
    uint8_t busnum;
    uint8_t devnum;
    /// The port the device hangs off the root hub; its sysfs name is "<bus>-<port>".
    uint8_t port;
    uint16_t vendor_id;
    uint16_t product_id;
    uint16_t bcd_device;
    /// String descriptors 1, 2 and 3 (UTF-8; NULL or empty for none).
    const char *manufacturer;
    const char *product;
    const char *serial;
    /// The interface: 6/1/1 for a still-image device, 0xFF/0/0 for a vendor-class camera.
    uint8_t interface_class;
    uint8_t interface_subclass;
    uint8_t interface_protocol;
    /// wMaxPacketSize of bulk IN 0x81 and bulk OUT 0x02, and of interrupt IN 0x83.
    uint16_t bulk_max_packet_size;
    uint16_t interrupt_max_packet_size;
    /// Bytes each direction queues before the writer waits (bulk OUT URBs stay pending, IN writes return -EAGAIN).
    size_t queue_capacity;
} fakeusb_config;

/// A class-specific control request (USB Still Image class: 0x64..0x67) waiting for the device side's answer.
typedef struct {
    uint64_t id;
    uint8_t request_type;
    uint8_t request;
    uint16_t value;
    uint16_t index;
    uint16_t length;
    /// The host's data stage of an OUT request.
    uint8_t data[256];
    size_t data_length;
} fakeusb_control_request;

/// Counters for tests: what the host really did on the wire.
typedef struct {
    uint64_t bulk_in_urbs;
    uint64_t bulk_out_urbs;
    uint64_t interrupt_urbs;
    uint64_t control_urbs;
    /// Bulk IN URBs that ended because a zero-length packet arrived.
    uint64_t bulk_in_ended_by_zlp;
    /// Bulk IN URBs that ended because their buffer filled.
    uint64_t bulk_in_ended_full;
    /// Bulk IN URBs that ended at a short packet.
    uint64_t bulk_in_ended_short;
    /// Zero-length bulk OUT transfers the host sent.
    uint64_t bulk_out_zlps;
    /// The largest bulk IN URB the host submitted, in bytes.
    uint64_t largest_bulk_in_urb;
    /// URBs the host discarded (libusb does this on a timeout or a cancel).
    uint64_t discarded_urbs;
    /// Class requests answered.
    uint64_t class_requests;
    /// CLEAR_HALT ioctls.
    uint64_t clear_halts;
    /// Successful interface claims.
    uint64_t claims;
} fakeusb_stats;

/// Loads libumockdev and GLib with dlopen. Returns 0, or -1 with a message in `error`.
int fakeusb_load(char *error, size_t error_length);

/// Whether the umockdev preload library is active in this process (only meaningful once a testbed exists).
int fakeusb_preload_active(void);

/// Creates the testbed (sets UMOCKDEV_DIR in this process and starts umockdev's worker thread). Returns NULL with a
/// message in `error` on failure.
fakeusb_testbed *fakeusb_testbed_create(char *error, size_t error_length);

/// Removes the testbed and frees every device in it. Every libusb context using it must be gone.
void fakeusb_testbed_destroy(fakeusb_testbed *testbed);

/// The testbed's root folder (the value of UMOCKDEV_DIR).
const char *fakeusb_testbed_root(const fakeusb_testbed *testbed);

/// Adds a device: attaches the ioctl handler, then creates the sysfs entry and the device node. `notify` may be
/// NULL. Returns NULL with a message in `error` on failure. The device lives until the testbed is destroyed.
fakeusb_device *fakeusb_device_add(
    fakeusb_testbed *testbed, const fakeusb_config *config, fakeusb_notify_fn notify, void *notify_context,
    char *error, size_t error_length);

/// The device node's path as a libusb program sees it (/dev/bus/usb/BBB/DDD).
const char *fakeusb_device_node(const fakeusb_device *device);

/// A change counter: it increases before every notification, so a waiter reads it, tries, and waits for a change.
uint64_t fakeusb_device_generation(fakeusb_device *device);

/// Reads host data from bulk OUT: up to `max_length` bytes, stopping at the end of a transfer (a short packet or a
/// zero-length packet), in which case `*ended` is set to 1. Returns the byte count (0 with `*ended` = 1 is a
/// zero-length packet), -EAGAIN when nothing is queued, -EPIPE while bulk OUT is halted, -ENODEV once unplugged.
long fakeusb_read_out(fakeusb_device *device, uint8_t *buffer, size_t max_length, int *ended);

/// Queues device data on IN endpoint `endpoint` (0x81 or 0x83), cut into packets of the endpoint's wMaxPacketSize:
/// a length that is not a multiple of it (or 0, a zero-length packet) ends the host's transfer. Returns 0,
/// -EAGAIN when the queue is full (wait for a notification and retry), -EPIPE while halted, -ENODEV once
/// unplugged, -EINVAL for another endpoint.
int fakeusb_write_in(fakeusb_device *device, uint8_t endpoint, const uint8_t *bytes, size_t length);

/// Halts (stalls) an endpoint until the host clears it: pending URBs complete with -EPIPE.
void fakeusb_halt(fakeusb_device *device, uint8_t endpoint);

/// Whether an endpoint is halted.
int fakeusb_is_halted(fakeusb_device *device, uint8_t endpoint);

/// Drops queued data the host has not read (IN) or the device has not read (OUT, endpoint 0x02).
void fakeusb_discard(fakeusb_device *device, uint8_t endpoint);

/// Takes the oldest class request waiting for an answer. Returns 1 and fills `request`, or 0 when none waits.
int fakeusb_next_control(fakeusb_device *device, fakeusb_control_request *request);

/// Answers class request `id`: `status` 0 with `length` bytes of data for an IN request, or -EPIPE to stall it.
/// A request the host has given up on (its URB was discarded) is ignored.
void fakeusb_answer_control(fakeusb_device *device, uint64_t id, int status, const uint8_t *data, size_t length);

/// Pulls the cable: in-flight URBs complete with -ESHUTDOWN, then every ioctl fails with ENODEV.
void fakeusb_unplug(fakeusb_device *device);

/// Pulls the cable and takes the device off the bus (its sysfs entry goes, as when a camera is switched off); its
/// address and port may be used by a device added later. The device's memory stays until the testbed goes.
void fakeusb_device_remove(fakeusb_device *device);

/// Makes interface claims fail with `error_number` (EBUSY: another program holds the camera); 0 restores them.
void fakeusb_set_claim_error(fakeusb_device *device, int error_number);

/// Sets the permission bits of the device node in the testbed (0 makes open() fail with EACCES for a process
/// that is not root, or that runs without CAP_DAC_OVERRIDE). Returns 0 or -errno.
int fakeusb_set_node_mode(fakeusb_device *device, unsigned int mode);

/// Copies the device's counters.
void fakeusb_get_stats(fakeusb_device *device, fakeusb_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
