// The fake USB camera's device model: descriptors, URB queues and packets, behind umockdev's ioctl socket.
//
// Every usbdevfs ioctl of a libusb program on the fake node arrives in handle_ioctl() on umockdev's worker thread.
// URBs are kept (with a reference to umockdev's copy of the client's struct usbdevfs_urb) until libusb reaps them;
// IN URBs are filled packet by packet from queues that the device side (Swift) writes from its own threads. The
// handler never waits for the device side: class requests are queued and answered later, and a URB completes
// whenever its data is there. Facts about umockdev and libusb this relies on: /work/shared/notes/fake-usb.md.

#include "fakeusb.h"

#if defined(__linux__)

// <sys/ioctl.h> must come before <linux/usbdevice_fs.h>, or the USBDEVFS_* request numbers do not expand.
#include <sys/ioctl.h>
#include <linux/usbdevice_fs.h>

#include "umockdev_api.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum {
    EP_BULK_IN = 0x81,
    EP_BULK_OUT = 0x02,
    EP_INTERRUPT = 0x83,
};

// ---------------------------------------------------------------------------------------------------------------
// Byte queues: each write is a segment that remembers whether it ends with a short packet.

typedef struct fu_segment {
    struct fu_segment *next;
    size_t length;
    size_t offset;
    int ends_short;
    uint8_t bytes[];
} fu_segment;

typedef struct {
    fu_segment *head;
    fu_segment *tail;
    size_t bytes;
} fu_queue;

static int queue_append(fu_queue *queue, const uint8_t *bytes, size_t length, int ends_short) {
    fu_segment *segment = malloc(sizeof(fu_segment) + length);
    if (segment == NULL) return -ENOMEM;
    segment->next = NULL;
    segment->length = length;
    segment->offset = 0;
    segment->ends_short = ends_short;
    if (length > 0) memcpy(segment->bytes, bytes, length);
    if (queue->tail != NULL) queue->tail->next = segment; else queue->head = segment;
    queue->tail = segment;
    queue->bytes += length;
    return 0;
}

static void queue_pop(fu_queue *queue) {
    fu_segment *segment = queue->head;
    if (segment == NULL) return;
    queue->head = segment->next;
    if (queue->head == NULL) queue->tail = NULL;
    queue->bytes -= segment->length - segment->offset;
    free(segment);
}

static void queue_clear(fu_queue *queue) {
    while (queue->head != NULL) queue_pop(queue);
}

// ---------------------------------------------------------------------------------------------------------------
// URBs.

typedef struct fu_urb {
    struct fu_urb *next;
    UMockdevIoctlClient *client;  // the open file that submitted it (reference held)
    UMockdevIoctlData *urb;       // umockdev's copy of the client's struct usbdevfs_urb (reference held)
    unsigned long address;        // the URB's address in the client: DISCARDURB names it
    uint8_t type;
    uint8_t endpoint;
    unsigned int flags;
    int length;                   // buffer_length
    int actual;                   // bytes transferred so far
    uint8_t *in;                  // bytes for the host: IN data, or a control request's data stage
    uint8_t *out;                 // bytes from the host: OUT data, or a control request's setup and data stage
    size_t out_length;
    int status;
    uint64_t control_id;          // class requests the device side answers
    int control_taken;
} fu_urb;

typedef struct {
    fu_urb *head;
    fu_urb *tail;
} fu_urb_list;

static void list_push(fu_urb_list *list, fu_urb *urb) {
    urb->next = NULL;
    if (list->tail != NULL) list->tail->next = urb; else list->head = urb;
    list->tail = urb;
}

static void list_remove(fu_urb_list *list, fu_urb *urb) {
    fu_urb *previous = NULL;
    for (fu_urb *item = list->head; item != NULL; previous = item, item = item->next) {
        if (item != urb) continue;
        if (previous != NULL) previous->next = item->next; else list->head = item->next;
        if (list->tail == item) list->tail = previous;
        item->next = NULL;
        return;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Testbed and device state.

struct fakeusb_testbed {
    UMockdevTestbed *testbed;
    char *root;
    fakeusb_device *devices;
};

struct fakeusb_device {
    fakeusb_device *next;
    fakeusb_testbed *testbed;
    fakeusb_config config;
    char *manufacturer;
    char *product;
    char *serial;
    char node[64];
    char node_file[4096];
    UMockdevIoctlBase *handler;
    fakeusb_notify_fn notify;
    void *notify_context;

    pthread_mutex_t lock;
    uint64_t generation;
    int unplugged;
    int removed;
    int claim_error;
    UMockdevIoctlClient *claimed_by;
    const UMockdevIoctlClient *drained_by;  // whose last reap handed a URB back (identity only, no reference)
    int halted_in;
    int halted_out;
    int halted_interrupt;
    fu_queue in_queue;
    fu_queue interrupt_queue;
    fu_queue out_queue;
    fu_urb_list pending_in;
    fu_urb_list pending_interrupt;
    fu_urb_list pending_out;
    fu_urb_list pending_control;
    fu_urb_list completed;
    uint64_t next_control_id;
    fakeusb_stats stats;
};

static const fu_umockdev_api *api;
static pthread_mutex_t testbed_lock = PTHREAD_MUTEX_INITIALIZER;
static int testbed_exists;

static void set_error(char *error, size_t length, const char *message) {
    if (error != NULL && length > 0) snprintf(error, length, "%s", message);
}

static void take_gerror(fu_gerror *gerror, char *error, size_t length, const char *what) {
    char message[512];
    snprintf(message, sizeof message, "%s: %s", what, gerror != NULL && gerror->message ? gerror->message : "failed");
    set_error(error, length, message);
    if (gerror != NULL) api->error_free(gerror);
}

static void urb_free(fu_urb *urb) {
    if (urb->urb != NULL) api->object_unref(urb->urb);
    if (urb->client != NULL) api->object_unref(urb->client);
    free(urb->in);
    free(urb->out);
    free(urb);
}

// ---------------------------------------------------------------------------------------------------------------
// Lingering reaps. The device node is a regular file, so poll() always says it is ready and libusb calls
// REAPURBNDELAY in a tight loop while a transfer is pending (~10,000 ioctls and half a core per second). A reap
// with nothing to hand back is therefore answered (EAGAIN) only after a short linger, or as soon as the device
// changes, by a helper thread: the worker thread never waits, and latency stays below the linger. The reap that
// follows a successful one (libusb drains until EAGAIN) is answered at once.

enum { LINGER_NANOSECONDS = 2000000 };

typedef struct fu_parked {
    struct fu_parked *next;
    fakeusb_device *device;
    UMockdevIoctlClient *client;  // reference held
    struct timespec due;
} fu_parked;

static pthread_mutex_t linger_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t linger_cond;
static pthread_t linger_thread;
static int linger_running;
static int linger_stopping;
static fu_parked *parked;

static int before(const struct timespec *a, const struct timespec *b) {
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void answer_parked(fu_parked *list) {
    while (list != NULL) {
        fu_parked *next = list->next;
        // A client that closed the device has nobody waiting for the answer.
        if (api->client_get_connected(list->client)) api->client_complete(list->client, -1, EAGAIN);
        api->object_unref(list->client);
        free(list);
        list = next;
    }
}

static void *linger_main(void *unused) {
    (void)unused;
    pthread_mutex_lock(&linger_lock);
    while (!linger_stopping) {
        if (parked == NULL) {
            pthread_cond_wait(&linger_cond, &linger_lock);
            continue;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        fu_parked *due = NULL, **link = &parked;
        struct timespec earliest = {0, 0};
        int have_earliest = 0;
        while (*link != NULL) {
            fu_parked *item = *link;
            if (!before(&now, &item->due)) {
                *link = item->next;
                item->next = due;
                due = item;
            } else {
                if (!have_earliest || before(&item->due, &earliest)) earliest = item->due;
                have_earliest = 1;
                link = &item->next;
            }
        }
        if (due != NULL) {
            pthread_mutex_unlock(&linger_lock);
            answer_parked(due);
            pthread_mutex_lock(&linger_lock);
        } else if (have_earliest) {
            pthread_cond_timedwait(&linger_cond, &linger_lock, &earliest);
        }
    }
    fu_parked *rest = parked;
    parked = NULL;
    pthread_mutex_unlock(&linger_lock);
    answer_parked(rest);
    return NULL;
}

static int linger_start(void) {
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&linger_cond, &attributes);
    pthread_condattr_destroy(&attributes);
    linger_stopping = 0;
    if (pthread_create(&linger_thread, NULL, linger_main, NULL) != 0) return -1;
    linger_running = 1;
    return 0;
}

/// Answers every parked reap and ends the helper thread.
static void linger_stop(void) {
    if (!linger_running) return;
    pthread_mutex_lock(&linger_lock);
    linger_stopping = 1;
    pthread_cond_signal(&linger_cond);
    pthread_mutex_unlock(&linger_lock);
    pthread_join(linger_thread, NULL);
    pthread_cond_destroy(&linger_cond);
    linger_running = 0;
}

/// Parks a reap that found nothing (called with the device lock held). Returns 0, or -1 when there is no helper.
static int park(fakeusb_device *device, UMockdevIoctlClient *client) {
    fu_parked *item = malloc(sizeof(fu_parked));
    if (item == NULL || !linger_running) {
        free(item);
        return -1;
    }
    item->device = device;
    item->client = api->object_ref(client);
    clock_gettime(CLOCK_MONOTONIC, &item->due);
    item->due.tv_nsec += LINGER_NANOSECONDS;
    if (item->due.tv_nsec >= 1000000000L) {
        item->due.tv_sec += 1;
        item->due.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&linger_lock);
    item->next = parked;
    parked = item;
    pthread_cond_signal(&linger_cond);
    pthread_mutex_unlock(&linger_lock);
    return 0;
}

/// Something happened on the device: parked reaps of its clients are answered now, from this thread (completing a
/// client only queues the answer on umockdev's worker thread), so libusb reaps again at once.
static void wake_parked(fakeusb_device *device) {
    fu_parked *woken = NULL;
    pthread_mutex_lock(&linger_lock);
    fu_parked **link = &parked;
    while (*link != NULL) {
        fu_parked *item = *link;
        if (item->device != device) {
            link = &item->next;
            continue;
        }
        *link = item->next;
        item->next = woken;
        woken = item;
    }
    pthread_mutex_unlock(&linger_lock);
    answer_parked(woken);
}

static void changed(fakeusb_device *device) {
    device->generation += 1;
    wake_parked(device);
}

static void fire(fakeusb_device *device) {
    if (device->notify != NULL) device->notify(device->notify_context);
}

/// Moves a pending URB to the completed list with `status`.
static void complete_urb(fakeusb_device *device, fu_urb_list *pending, fu_urb *urb, int status) {
    list_remove(pending, urb);
    urb->status = status;
    list_push(&device->completed, urb);
    changed(device);
}

/// Drops URBs whose client closed the device (a crashed or finished child) so they cannot swallow device data.
static void drop_orphans(fu_urb_list *list) {
    fu_urb *urb = list->head;
    while (urb != NULL) {
        fu_urb *next = urb->next;
        if (!api->client_get_connected(urb->client)) {
            list_remove(list, urb);
            urb_free(urb);
        }
        urb = next;
    }
}

static fu_queue *in_queue_of(fakeusb_device *device, uint8_t endpoint) {
    if (endpoint == EP_BULK_IN) return &device->in_queue;
    if (endpoint == EP_INTERRUPT) return &device->interrupt_queue;
    return NULL;
}

static fu_urb_list *pending_of(fakeusb_device *device, uint8_t endpoint) {
    if (endpoint == EP_BULK_IN) return &device->pending_in;
    if (endpoint == EP_INTERRUPT) return &device->pending_interrupt;
    if (endpoint == EP_BULK_OUT) return &device->pending_out;
    return NULL;
}

static int *halt_flag(fakeusb_device *device, uint8_t endpoint) {
    if (endpoint == EP_BULK_IN) return &device->halted_in;
    if (endpoint == EP_INTERRUPT) return &device->halted_interrupt;
    if (endpoint == EP_BULK_OUT) return &device->halted_out;
    return NULL;
}

static size_t packet_size(const fakeusb_device *device, uint8_t endpoint) {
    size_t size = endpoint == EP_INTERRUPT ? device->config.interrupt_max_packet_size
                                           : device->config.bulk_max_packet_size;
    return size > 0 ? size : 64;
}

/// Moves queued device data into pending IN URBs, packet by packet (USB 2.0 §5.8.3): a URB completes when its
/// buffer is full, when a short packet arrives, or when a zero-length packet arrives. A packet larger than the
/// space left in a URB is babble: the URB fails with -EOVERFLOW and the packet is lost, as on real hardware.
static void pump_in(fakeusb_device *device, uint8_t endpoint) {
    fu_queue *queue = in_queue_of(device, endpoint);
    fu_urb_list *pending = pending_of(device, endpoint);
    size_t packet = packet_size(device, endpoint);
    drop_orphans(pending);
    while (pending->head != NULL && queue->head != NULL) {
        fu_urb *urb = pending->head;
        fu_segment *segment = queue->head;
        size_t available = segment->length - segment->offset;
        size_t space = (size_t)(urb->length - urb->actual);
        if (segment->length == 0) {
            queue_pop(queue);
            if (endpoint == EP_BULK_IN) device->stats.bulk_in_ended_by_zlp += 1;
            complete_urb(device, pending, urb, 0);
            continue;
        }
        size_t whole = available / packet < space / packet ? available / packet : space / packet;
        size_t count = whole * packet;
        int short_packet = 0;
        if (count == 0) {
            // The next packet is either the segment's short last packet, or a full packet that does not fit.
            size_t next = available < packet ? available : packet;
            if (next > space) {
                segment->offset += next;
                queue->bytes -= next;
                if (segment->offset == segment->length) queue_pop(queue);
                complete_urb(device, pending, urb, -EOVERFLOW);
                continue;
            }
            count = next;
            short_packet = next < packet;
        }
        memcpy(urb->in + urb->actual, segment->bytes + segment->offset, count);
        urb->actual += (int)count;
        segment->offset += count;
        queue->bytes -= count;
        changed(device);
        int segment_done = segment->offset == segment->length;
        int ends = segment_done && segment->ends_short;
        if (segment_done) queue_pop(queue);
        if (short_packet || ends) {
            if (endpoint == EP_BULK_IN) device->stats.bulk_in_ended_short += 1;
            complete_urb(device, pending, urb, 0);
        } else if (urb->actual == urb->length) {
            if (endpoint == EP_BULK_IN) device->stats.bulk_in_ended_full += 1;
            complete_urb(device, pending, urb, 0);
        }
    }
}

/// Accepts host OUT data while the queue has room; URBs beyond it wait (the device NAKs).
static void admit_out(fakeusb_device *device) {
    size_t packet = packet_size(device, EP_BULK_OUT);
    size_t capacity = device->config.queue_capacity > 0 ? device->config.queue_capacity : (size_t)4 << 20;
    drop_orphans(&device->pending_out);
    while (device->pending_out.head != NULL) {
        fu_urb *urb = device->pending_out.head;
        size_t length = urb->out_length;
        if (device->out_queue.bytes > 0 && device->out_queue.bytes + length > capacity) break;
        int ends_short = length == 0 || length % packet != 0;
        if (queue_append(&device->out_queue, urb->out, length, ends_short) != 0) break;
        // USBDEVFS_URB_ZERO_PACKET (libusb's LIBUSB_TRANSFER_ADD_ZERO_PACKET): a ZLP follows a whole-packet write.
        if (!ends_short && (urb->flags & USBDEVFS_URB_ZERO_PACKET)) queue_append(&device->out_queue, NULL, 0, 1);
        if (length == 0) device->stats.bulk_out_zlps += 1;
        urb->actual = (int)length;
        complete_urb(device, &device->pending_out, urb, 0);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Descriptors (USB 2.0 §9.6).

static size_t device_descriptor(const fakeusb_device *device, uint8_t out[18]) {
    const fakeusb_config *c = &device->config;
    uint8_t bytes[18] = {
        18, 1, 0x00, 0x02,  // bLength, DEVICE, bcdUSB 2.00
        0, 0, 0, 64,        // class/subclass/protocol at interface level, ep0 wMaxPacketSize 64
        (uint8_t)c->vendor_id, (uint8_t)(c->vendor_id >> 8), (uint8_t)c->product_id, (uint8_t)(c->product_id >> 8),
        (uint8_t)c->bcd_device, (uint8_t)(c->bcd_device >> 8),
        device->manufacturer != NULL ? 1 : 0, device->product != NULL ? 2 : 0, device->serial != NULL ? 3 : 0,
        1,  // bNumConfigurations
    };
    memcpy(out, bytes, sizeof bytes);
    return sizeof bytes;
}

static size_t config_descriptor(const fakeusb_device *device, uint8_t out[39]) {
    const fakeusb_config *c = &device->config;
    uint16_t bulk = c->bulk_max_packet_size, interrupt = c->interrupt_max_packet_size;
    uint8_t bytes[39] = {
        9, 2, 39, 0, 1, 1, 0, 0xC0, 1,  // CONFIGURATION: wTotalLength 39, 1 interface, value 1, self-powered, 2 mA
        9, 4, 0, 0, 3, c->interface_class, c->interface_subclass, c->interface_protocol, 0,  // INTERFACE 0, 3 EPs
        7, 5, EP_BULK_IN, 2, (uint8_t)bulk, (uint8_t)(bulk >> 8), 0,                         // bulk IN
        7, 5, EP_BULK_OUT, 2, (uint8_t)bulk, (uint8_t)(bulk >> 8), 0,                        // bulk OUT
        7, 5, EP_INTERRUPT, 3, (uint8_t)interrupt, (uint8_t)(interrupt >> 8), 9,             // interrupt IN, 2^8 µframes
    };
    memcpy(out, bytes, sizeof bytes);
    return sizeof bytes;
}

/// A string descriptor: UTF-8 decoded to UTF-16LE (surrogate pairs above the BMP), at most 126 code units.
static size_t string_descriptor(const char *text, uint8_t out[255]) {
    size_t count = 2;
    const unsigned char *p = (const unsigned char *)text;
    while (*p != 0 && count + 4 <= 254) {
        uint32_t scalar;
        if (p[0] < 0x80) { scalar = p[0]; p += 1; }
        else if ((p[0] & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80) { scalar = (uint32_t)(p[0] & 0x1F) << 6 | (p[1] & 0x3F); p += 2; }
        else if ((p[0] & 0xF0) == 0xE0 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80) {
            scalar = (uint32_t)(p[0] & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F); p += 3;
        } else if ((p[0] & 0xF8) == 0xF0 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80 && (p[3] & 0xC0) == 0x80) {
            scalar = (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 | (uint32_t)(p[2] & 0x3F) << 6 |
                     (p[3] & 0x3F);
            p += 4;
        } else { scalar = 0xFFFD; p += 1; }
        if (scalar >= 0x10000) {
            scalar -= 0x10000;
            uint16_t high = (uint16_t)(0xD800 | (scalar >> 10)), low = (uint16_t)(0xDC00 | (scalar & 0x3FF));
            out[count++] = (uint8_t)high; out[count++] = (uint8_t)(high >> 8);
            out[count++] = (uint8_t)low; out[count++] = (uint8_t)(low >> 8);
        } else {
            out[count++] = (uint8_t)scalar; out[count++] = (uint8_t)(scalar >> 8);
        }
    }
    out[0] = (uint8_t)count;
    out[1] = 3;  // STRING
    return count;
}

// ---------------------------------------------------------------------------------------------------------------
// Control transfers on endpoint 0.

/// Completes a control URB with `reply` as its IN data stage (truncated to wLength), or stalls it (`status` < 0).
static void finish_control(fakeusb_device *device, fu_urb *urb, int status, const uint8_t *reply, size_t length) {
    uint16_t w_length = (uint16_t)(urb->out[6] | urb->out[7] << 8);
    if (status == 0 && (urb->out[0] & 0x80)) {
        if (length > w_length) length = w_length;
        if (length > (size_t)(urb->length - 8)) length = (size_t)(urb->length - 8);
        urb->in = malloc(length > 0 ? length : 1);
        if (urb->in == NULL) { status = -ENOMEM; length = 0; }
        else if (length > 0) memcpy(urb->in, reply, length);
        urb->actual = (int)length;
    } else if (status == 0) {
        urb->actual = (int)(urb->out_length - 8);
    }
    complete_urb(device, &device->pending_control, urb, status);
}

/// Standard requests are answered here; class requests to interface 0 wait for the device side; anything else
/// stalls, as a real device's control endpoint does.
static void handle_control(fakeusb_device *device, fu_urb *urb) {
    const uint8_t *setup = urb->out;
    uint8_t request_type = setup[0], request = setup[1];
    uint16_t value = (uint16_t)(setup[2] | setup[3] << 8), index = (uint16_t)(setup[4] | setup[5] << 8);
    uint8_t reply[255];
    size_t length = 0;
    list_push(&device->pending_control, urb);
    device->stats.control_urbs += 1;

    if ((request_type & 0x60) == 0x20 && (request_type & 0x1F) == 1 && (index & 0xFF) == 0) {
        if (!(request_type & 0x80) && urb->out_length - 8 > sizeof(((fakeusb_control_request *)0)->data)) {
            finish_control(device, urb, -EPIPE, NULL, 0);
            return;
        }
        urb->control_id = ++device->next_control_id;
        changed(device);
        return;
    }
    if ((request_type & 0x60) != 0) {
        finish_control(device, urb, -EPIPE, NULL, 0);
        return;
    }
    switch (request) {
    case 0x06:  // GET_DESCRIPTOR
        switch (value >> 8) {
        case 1: length = device_descriptor(device, reply); break;
        case 2: length = config_descriptor(device, reply); break;
        case 3: {
            uint8_t string_index = (uint8_t)value;
            const char *text = string_index == 1 ? device->manufacturer
                             : string_index == 2 ? device->product
                             : string_index == 3 ? device->serial : NULL;
            if (string_index == 0) {
                uint8_t languages[4] = {4, 3, 0x09, 0x04};  // en-US
                memcpy(reply, languages, 4);
                length = 4;
            } else if (text != NULL) {
                length = string_descriptor(text, reply);
            } else {
                finish_control(device, urb, -EPIPE, NULL, 0);
                return;
            }
            break;
        }
        default:
            finish_control(device, urb, -EPIPE, NULL, 0);
            return;
        }
        break;
    case 0x00:  // GET_STATUS: self-powered device; an endpoint's halt bit
        memset(reply, 0, 2);
        if ((request_type & 0x1F) == 0) reply[0] = 1;
        if ((request_type & 0x1F) == 2) {
            int *flag = halt_flag(device, (uint8_t)index);
            reply[0] = flag != NULL && *flag ? 1 : 0;
        }
        length = 2;
        break;
    case 0x01:  // CLEAR_FEATURE(ENDPOINT_HALT)
        if ((request_type & 0x1F) == 2 && value == 0) {
            int *flag = halt_flag(device, (uint8_t)index);
            if (flag != NULL) *flag = 0;
        }
        break;
    case 0x08:  // GET_CONFIGURATION
        reply[0] = 1;
        length = 1;
        break;
    case 0x09:  // SET_CONFIGURATION
    case 0x0B:  // SET_INTERFACE
        break;
    default:
        finish_control(device, urb, -EPIPE, NULL, 0);
        return;
    }
    finish_control(device, urb, 0, reply, length);
}

// ---------------------------------------------------------------------------------------------------------------
// The ioctl handler (umockdev worker thread).

static UMockdevIoctlData *resolve(UMockdevIoctlData *data, size_t offset, size_t length) {
    fu_gerror *gerror = NULL;
    UMockdevIoctlData *result = api->data_resolve(data, offset, length, &gerror);
    if (gerror != NULL) api->error_free(gerror);
    return result;
}

/// Drops a claim whose owner closed the device.
static void refresh_claim(fakeusb_device *device) {
    if (device->claimed_by != NULL && !api->client_get_connected(device->claimed_by)) {
        api->object_unref(device->claimed_by);
        device->claimed_by = NULL;
    }
}

static int claim(fakeusb_device *device, UMockdevIoctlClient *client, unsigned int interface) {
    if (interface != 0) return ENOENT;
    if (device->claim_error != 0) return device->claim_error;
    refresh_claim(device);
    if (device->claimed_by == client) return 0;
    if (device->claimed_by != NULL) return EBUSY;
    device->claimed_by = api->object_ref(client);
    device->stats.claims += 1;
    return 0;
}

/// SUBMITURB: returns 0 or an errno for the submit itself.
static int submit(fakeusb_device *device, UMockdevIoctlClient *client, UMockdevIoctlData *arg) {
    unsigned long address = *(unsigned long *)arg->data;  // read before resolve() swaps in a local pointer
    UMockdevIoctlData *urb_data = resolve(arg, 0, sizeof(struct usbdevfs_urb));
    if (urb_data == NULL) return EFAULT;
    const struct usbdevfs_urb *u = (const struct usbdevfs_urb *)urb_data->data;
    fu_urb *urb = calloc(1, sizeof(fu_urb));
    if (urb == NULL || u->buffer_length < 0) {
        free(urb);
        api->object_unref(urb_data);
        return urb == NULL ? ENOMEM : EINVAL;
    }
    urb->client = api->object_ref(client);
    urb->urb = urb_data;
    urb->address = address;
    urb->type = u->type;
    urb->endpoint = u->endpoint;
    urb->flags = u->flags;
    urb->length = u->buffer_length;

    int is_control = urb->type == USBDEVFS_URB_TYPE_CONTROL;
    int is_bulk_out = urb->type == USBDEVFS_URB_TYPE_BULK && urb->endpoint == EP_BULK_OUT;
    int is_in = (urb->type == USBDEVFS_URB_TYPE_BULK && urb->endpoint == EP_BULK_IN) ||
                (urb->type == USBDEVFS_URB_TYPE_INTERRUPT && urb->endpoint == EP_INTERRUPT);
    if (!is_control && !is_bulk_out && !is_in) {
        urb_free(urb);
        return ENOENT;
    }
    if (is_control && urb->length < 8) {
        urb_free(urb);
        return EINVAL;
    }
    if (is_control || is_bulk_out) {
        urb->out_length = (size_t)urb->length;
        urb->out = malloc(urb->out_length > 0 ? urb->out_length : 1);
        if (urb->out == NULL) {
            urb_free(urb);
            return ENOMEM;
        }
        if (urb->out_length > 0) {
            UMockdevIoctlData *buffer = resolve(urb_data, offsetof(struct usbdevfs_urb, buffer), urb->out_length);
            if (buffer == NULL) {
                urb_free(urb);
                return EFAULT;
            }
            memcpy(urb->out, buffer->data, urb->out_length);
            api->object_unref(buffer);
        }
    }
    if (is_in) {
        urb->in = malloc(urb->length > 0 ? (size_t)urb->length : 1);
        if (urb->in == NULL) {
            urb_free(urb);
            return ENOMEM;
        }
    }
    if (!is_control) {
        int error = claim(device, client, 0);  // usbfs claims the interface implicitly on first use
        if (error != 0) {
            urb_free(urb);
            return error;
        }
    }

    if (is_control) {
        handle_control(device, urb);
    } else if (is_bulk_out) {
        device->stats.bulk_out_urbs += 1;
        list_push(&device->pending_out, urb);
        if (device->halted_out) complete_urb(device, &device->pending_out, urb, -EPIPE);
        else admit_out(device);
    } else {
        fu_urb_list *pending = pending_of(device, urb->endpoint);
        list_push(pending, urb);
        if (urb->endpoint == EP_BULK_IN) {
            device->stats.bulk_in_urbs += 1;
            if ((uint64_t)urb->length > device->stats.largest_bulk_in_urb) device->stats.largest_bulk_in_urb = (uint64_t)urb->length;
        } else {
            device->stats.interrupt_urbs += 1;
        }
        if (*halt_flag(device, urb->endpoint)) complete_urb(device, pending, urb, -EPIPE);
        else pump_in(device, urb->endpoint);
    }
    changed(device);
    return 0;
}

/// REAPURB / REAPURBNDELAY: hands the oldest completed URB of this client back, data and status written into the
/// client's own struct and buffer when the ioctl completes. With nothing to hand back the reap lingers (returns
/// -1: the helper thread answers it).
static int reap(fakeusb_device *device, UMockdevIoctlClient *client, UMockdevIoctlData *arg) {
    fu_urb *urb = device->completed.head;
    while (urb != NULL && urb->client != client) urb = urb->next;
    if (urb == NULL) {
        if (device->unplugged) return ENODEV;
        // libusb reaps until EAGAIN after every URB it gets: that draining reap is answered at once, or each
        // transfer would wait out a linger.
        if (device->drained_by == client) {
            device->drained_by = NULL;
            return EAGAIN;
        }
        return park(device, client) == 0 ? -1 : EAGAIN;
    }
    device->drained_by = client;
    UMockdevIoctlData *pointer = resolve(arg, 0, sizeof(void *));
    if (pointer == NULL) return EFAULT;
    list_remove(&device->completed, urb);

    int is_control = urb->type == USBDEVFS_URB_TYPE_CONTROL;
    int delivers = urb->in != NULL && urb->actual > 0 && (!is_control || (urb->out[0] & 0x80));
    if (delivers) {
        size_t offset = is_control ? 8 : 0;
        UMockdevIoctlData *buffer =
            resolve(urb->urb, offsetof(struct usbdevfs_urb, buffer), offset + (size_t)urb->actual);
        if (buffer != NULL && (size_t)buffer->data_len >= offset + (size_t)urb->actual) {
            memcpy(buffer->data + offset, urb->in, (size_t)urb->actual);
        }
        if (buffer != NULL) api->object_unref(buffer);
    }
    struct usbdevfs_urb *u = (struct usbdevfs_urb *)urb->urb->data;
    u->status = urb->status;
    u->actual_length = urb->actual;
    api->data_set_ptr(pointer, 0, urb->urb);
    api->object_unref(pointer);
    urb_free(urb);
    return 0;
}

static int discard(fakeusb_device *device, UMockdevIoctlClient *client, UMockdevIoctlData *arg) {
    unsigned long address = *(unsigned long *)arg->data;
    fu_urb_list *lists[] = {&device->pending_in, &device->pending_interrupt, &device->pending_out,
                            &device->pending_control};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        for (fu_urb *urb = lists[i]->head; urb != NULL; urb = urb->next) {
            if (urb->client != client || urb->address != address) continue;
            device->stats.discarded_urbs += 1;
            // The kernel reports an unlinked URB as -ENOENT, with the bytes it had already received.
            complete_urb(device, lists[i], urb, -ENOENT);
            return 0;
        }
    }
    return device->unplugged ? ENODEV : EINVAL;
}

static int handle_ioctl(UMockdevIoctlBase *handler, UMockdevIoctlClient *client, void *context) {
    (void)handler;
    fakeusb_device *device = context;
    unsigned long request = api->client_get_request(client);
    UMockdevIoctlData *arg = api->client_get_arg(client);
    long result = 0;
    int error = 0;
    uint64_t generation_before;

    pthread_mutex_lock(&device->lock);
    generation_before = device->generation;
    if (device->unplugged && request != USBDEVFS_REAPURBNDELAY && request != USBDEVFS_REAPURB) {
        error = ENODEV;
    } else {
        switch (request) {
        case USBDEVFS_SUBMITURB:
            error = submit(device, client, arg);
            break;
        case USBDEVFS_REAPURB:  // libusb 1.0.26 only uses the NDELAY form; the blocking one is answered alike
        case USBDEVFS_REAPURBNDELAY:
            error = reap(device, client, arg);
            break;
        case USBDEVFS_DISCARDURB:
            error = discard(device, client, arg);
            break;
        case USBDEVFS_GET_CAPABILITIES: {
            UMockdevIoctlData *caps = resolve(arg, 0, sizeof(uint32_t));
            if (caps == NULL) { error = EFAULT; break; }
            // One URB per transfer (scatter-gather), like a modern xHCI host.
            *(uint32_t *)caps->data = USBDEVFS_CAP_ZERO_PACKET | USBDEVFS_CAP_BULK_CONTINUATION |
                                      USBDEVFS_CAP_NO_PACKET_SIZE_LIM | USBDEVFS_CAP_BULK_SCATTER_GATHER |
                                      USBDEVFS_CAP_REAP_AFTER_DISCONNECT;
            api->object_unref(caps);
            break;
        }
        case USBDEVFS_CLAIMINTERFACE:
        case USBDEVFS_DISCONNECT_CLAIM: {
            UMockdevIoctlData *value = resolve(arg, 0, request == USBDEVFS_CLAIMINTERFACE
                                                           ? sizeof(unsigned int)
                                                           : sizeof(struct usbdevfs_disconnect_claim));
            if (value == NULL) { error = EFAULT; break; }
            error = claim(device, client, *(unsigned int *)value->data);
            api->object_unref(value);
            break;
        }
        case USBDEVFS_RELEASEINTERFACE: {
            UMockdevIoctlData *value = resolve(arg, 0, sizeof(unsigned int));
            if (value == NULL) { error = EFAULT; break; }
            if (*(unsigned int *)value->data != 0 || device->claimed_by != client) {
                error = EINVAL;
            } else {
                api->object_unref(device->claimed_by);
                device->claimed_by = NULL;
            }
            api->object_unref(value);
            break;
        }
        case USBDEVFS_SETINTERFACE: {
            UMockdevIoctlData *value = resolve(arg, 0, sizeof(struct usbdevfs_setinterface));
            if (value == NULL) { error = EFAULT; break; }
            const struct usbdevfs_setinterface *s = (const struct usbdevfs_setinterface *)value->data;
            if (s->interface != 0 || s->altsetting != 0) error = EINVAL;
            api->object_unref(value);
            break;
        }
        case USBDEVFS_SETCONFIGURATION: {
            UMockdevIoctlData *value = resolve(arg, 0, sizeof(int));
            if (value == NULL) { error = EFAULT; break; }
            int configuration = *(int *)value->data;
            if (configuration != 1 && configuration != 0 && configuration != -1) error = EINVAL;
            api->object_unref(value);
            break;
        }
        case USBDEVFS_CLEAR_HALT: {
            UMockdevIoctlData *value = resolve(arg, 0, sizeof(unsigned int));
            if (value == NULL) { error = EFAULT; break; }
            int *flag = halt_flag(device, (uint8_t)*(unsigned int *)value->data);
            if (flag == NULL) {
                error = ENOENT;
            } else {
                *flag = 0;
                device->stats.clear_halts += 1;
                changed(device);
            }
            api->object_unref(value);
            break;
        }
        case USBDEVFS_RESETEP:
            break;
        case USBDEVFS_RESET:
            device->halted_in = device->halted_out = device->halted_interrupt = 0;
            changed(device);
            break;
        case USBDEVFS_GETDRIVER: {
            UMockdevIoctlData *value = resolve(arg, 0, sizeof(struct usbdevfs_getdriver));
            if (value == NULL) { error = EFAULT; break; }
            refresh_claim(device);
            struct usbdevfs_getdriver *driver = (struct usbdevfs_getdriver *)value->data;
            // No kernel driver binds a still-image interface; a program holding it shows up as "usbfs".
            if (device->claim_error == EBUSY || device->claimed_by != NULL) {
                snprintf(driver->driver, sizeof driver->driver, "usbfs");
            } else {
                error = ENODATA;
            }
            api->object_unref(value);
            break;
        }
        case USBDEVFS_IOCTL:  // detach or attach a kernel driver: there is none
            error = ENODATA;
            break;
        case USBDEVFS_GET_SPEED:
            result = 3;  // USB_SPEED_HIGH
            break;
        default:
            error = ENOTTY;
            break;
        }
    }
    int notify = device->generation != generation_before;
    pthread_mutex_unlock(&device->lock);

    if (error == -1) return 1;  // a lingering reap: the helper thread completes it
    api->client_complete(client, error != 0 ? -1 : result, error);
    if (notify) fire(device);
    return 1;
}

// ---------------------------------------------------------------------------------------------------------------
// Public API.

int fakeusb_load(char *error, size_t error_length) {
    api = fu_umockdev(error, error_length);
    return api != NULL ? 0 : -1;
}

int fakeusb_preload_active(void) { return api != NULL && api->in_mock_environment(); }

fakeusb_testbed *fakeusb_testbed_create(char *error, size_t error_length) {
    if (fakeusb_load(error, error_length) != 0) return NULL;
    pthread_mutex_lock(&testbed_lock);
    if (testbed_exists) {
        pthread_mutex_unlock(&testbed_lock);
        set_error(error, error_length, "a umockdev testbed already exists in this process (one at a time)");
        return NULL;
    }
    fakeusb_testbed *testbed = calloc(1, sizeof(fakeusb_testbed));
    if (testbed == NULL) {
        pthread_mutex_unlock(&testbed_lock);
        set_error(error, error_length, "out of memory");
        return NULL;
    }
    testbed->testbed = api->testbed_new();
    if (testbed->testbed == NULL) {
        pthread_mutex_unlock(&testbed_lock);
        free(testbed);
        set_error(error, error_length, "umockdev_testbed_new failed");
        return NULL;
    }
    char *root = api->testbed_get_root_dir(testbed->testbed);
    testbed->root = strdup(root != NULL ? root : "");
    api->free(root);
    if (linger_start() != 0) {
        pthread_mutex_unlock(&testbed_lock);
        api->object_unref(testbed->testbed);
        free(testbed->root);
        free(testbed);
        set_error(error, error_length, "cannot start the fake USB helper thread");
        return NULL;
    }
    testbed_exists = 1;
    pthread_mutex_unlock(&testbed_lock);
    return testbed;
}

void fakeusb_testbed_destroy(fakeusb_testbed *testbed) {
    if (testbed == NULL) return;
    // Parked reaps are answered first: a libusb thread may be waiting in one.
    linger_stop();
    // The testbed's finalizer stops umockdev's worker thread, so no handler runs once the devices are freed.
    api->object_unref(testbed->testbed);
    fakeusb_device *device = testbed->devices;
    while (device != NULL) {
        fakeusb_device *next = device->next;
        fu_urb_list *lists[] = {&device->pending_in, &device->pending_interrupt, &device->pending_out,
                                &device->pending_control, &device->completed};
        for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
            while (lists[i]->head != NULL) {
                fu_urb *urb = lists[i]->head;
                list_remove(lists[i], urb);
                urb_free(urb);
            }
        }
        queue_clear(&device->in_queue);
        queue_clear(&device->interrupt_queue);
        queue_clear(&device->out_queue);
        if (device->claimed_by != NULL) api->object_unref(device->claimed_by);
        api->object_unref(device->handler);
        pthread_mutex_destroy(&device->lock);
        free(device->manufacturer);
        free(device->product);
        free(device->serial);
        free(device);
        device = next;
    }
    free(testbed->root);
    free(testbed);
    pthread_mutex_lock(&testbed_lock);
    testbed_exists = 0;
    pthread_mutex_unlock(&testbed_lock);
}

const char *fakeusb_testbed_root(const fakeusb_testbed *testbed) { return testbed->root; }

/// Appends `value` to a umockdev text record, escaping what its parser would unescape.
static void append_escaped(char *out, size_t size, const char *value) {
    size_t used = strlen(out);
    for (const unsigned char *p = (const unsigned char *)value; *p != 0 && used + 5 < size; p++) {
        if (*p == '\\') used += (size_t)snprintf(out + used, size - used, "\\\\");
        else if (*p < 0x20) used += (size_t)snprintf(out + used, size - used, "\\%03o", *p);
        else out[used++] = (char)*p;
    }
    out[used] = 0;
}

static char *copy_string(const char *text) { return text != NULL && text[0] != 0 ? strdup(text) : NULL; }

fakeusb_device *fakeusb_device_add(
    fakeusb_testbed *testbed, const fakeusb_config *config, fakeusb_notify_fn notify, void *notify_context,
    char *error, size_t error_length) {
    if (config->busnum == 0 || config->devnum == 0 || config->port == 0) {
        set_error(error, error_length, "bus number, device address and port must be 1 or more");
        return NULL;
    }
    for (fakeusb_device *other = testbed->devices; other != NULL; other = other->next) {
        if (other->removed) continue;
        if (other->config.busnum == config->busnum &&
            (other->config.devnum == config->devnum || other->config.port == config->port)) {
            set_error(error, error_length, "another fake device already uses this address or port");
            return NULL;
        }
    }
    fakeusb_device *device = calloc(1, sizeof(fakeusb_device));
    if (device == NULL) {
        set_error(error, error_length, "out of memory");
        return NULL;
    }
    device->testbed = testbed;
    device->config = *config;
    device->manufacturer = copy_string(config->manufacturer);
    device->product = copy_string(config->product);
    device->serial = copy_string(config->serial);
    device->config.manufacturer = device->config.product = device->config.serial = NULL;
    if (device->config.bulk_max_packet_size == 0) device->config.bulk_max_packet_size = 512;
    if (device->config.interrupt_max_packet_size == 0) device->config.interrupt_max_packet_size = 8;
    device->notify = notify;
    device->notify_context = notify_context;
    pthread_mutex_init(&device->lock, NULL);
    snprintf(device->node, sizeof device->node, "/dev/bus/usb/%03u/%03u", config->busnum, config->devnum);
    snprintf(device->node_file, sizeof device->node_file, "%s%s", testbed->root, device->node);

    // The handler first, then the sysfs entry: a program that sees the "add" uevent may open the node at once
    // (umockdev issue #173).
    device->handler = api->ioctl_base_new();
    api->signal_connect_data(device->handler, "handle-ioctl", (void (*)(void))handle_ioctl, device, NULL, 0);
    fu_gerror *gerror = NULL;
    if (!api->testbed_attach_ioctl(testbed->testbed, device->node, device->handler, &gerror)) {
        take_gerror(gerror, error, error_length, "umockdev_testbed_attach_ioctl");
        api->object_unref(device->handler);
        free(device);
        return NULL;
    }

    uint8_t descriptors[18 + 39];
    size_t length = device_descriptor(device, descriptors);
    length += config_descriptor(device, descriptors + length);
    char hex[2 * sizeof descriptors + 1];
    for (size_t i = 0; i < length; i++) snprintf(hex + 2 * i, 3, "%02x", descriptors[i]);

    char record[4096];
    snprintf(record, sizeof record,
             "P: /devices/pci0000:00/0000:00:14.0/usb%u/%u-%u\n"
             "N: bus/usb/%03u/%03u\n"
             "E: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\nE: DRIVER=usb\n"
             "E: BUSNUM=%03u\nE: DEVNUM=%03u\nE: DEVNAME=/dev/bus/usb/%03u/%03u\nE: PRODUCT=%x/%x/%x\n"
             "A: busnum=%u\\n\nA: devnum=%u\\n\nA: devpath=%u\\n\nA: bConfigurationValue=1\\n\nA: speed=480\\n\n"
             "A: idVendor=%04x\\n\nA: idProduct=%04x\\n\nA: bcdDevice=%04x\\n\n"
             "A: bDeviceClass=00\\n\nA: bNumConfigurations=1\\n\nA: bNumInterfaces= 1\\n\n",
             config->busnum, config->busnum, config->port, config->busnum, config->devnum, config->busnum,
             config->devnum, config->busnum, config->devnum, config->vendor_id, config->product_id,
             config->bcd_device, config->busnum, config->devnum, config->port, config->vendor_id,
             config->product_id, config->bcd_device);
    const char *names[] = {"manufacturer", "product", "serial"};
    const char *values[] = {device->manufacturer, device->product, device->serial};
    for (size_t i = 0; i < 3; i++) {
        if (values[i] == NULL) continue;
        size_t used = strlen(record);
        snprintf(record + used, sizeof record - used, "A: %s=", names[i]);
        append_escaped(record, sizeof record - 8, values[i]);
        used = strlen(record);
        snprintf(record + used, sizeof record - used, "\\n\n");
    }
    size_t used = strlen(record);
    snprintf(record + used, sizeof record - used, "H: descriptors=%s\n", hex);

    gerror = NULL;
    if (!api->testbed_add_from_string(testbed->testbed, record, &gerror)) {
        take_gerror(gerror, error, error_length, "umockdev_testbed_add_from_string");
        // The handler stays attached to the testbed; it is released with the testbed.
        device->next = testbed->devices;
        testbed->devices = device;
        return NULL;
    }
    device->next = testbed->devices;
    testbed->devices = device;
    return device;
}

const char *fakeusb_device_node(const fakeusb_device *device) { return device->node; }

uint64_t fakeusb_device_generation(fakeusb_device *device) {
    pthread_mutex_lock(&device->lock);
    uint64_t generation = device->generation;
    pthread_mutex_unlock(&device->lock);
    return generation;
}

long fakeusb_read_out(fakeusb_device *device, uint8_t *buffer, size_t max_length, int *ended) {
    *ended = 0;
    pthread_mutex_lock(&device->lock);
    if (device->unplugged) {
        pthread_mutex_unlock(&device->lock);
        return -ENODEV;
    }
    if (device->halted_out) {
        pthread_mutex_unlock(&device->lock);
        return -EPIPE;
    }
    if (device->out_queue.head == NULL) {
        pthread_mutex_unlock(&device->lock);
        return -EAGAIN;
    }
    size_t count = 0;
    while (device->out_queue.head != NULL && count < max_length) {
        fu_segment *segment = device->out_queue.head;
        size_t take = segment->length - segment->offset;
        if (take > max_length - count) take = max_length - count;
        memcpy(buffer + count, segment->bytes + segment->offset, take);
        segment->offset += take;
        device->out_queue.bytes -= take;
        count += take;
        if (segment->offset < segment->length) break;
        int ends = segment->ends_short;
        queue_pop(&device->out_queue);
        if (ends) {
            *ended = 1;
            break;
        }
    }
    admit_out(device);
    changed(device);
    pthread_mutex_unlock(&device->lock);
    return (long)count;
}

int fakeusb_write_in(fakeusb_device *device, uint8_t endpoint, const uint8_t *bytes, size_t length) {
    fu_queue *queue = in_queue_of(device, endpoint);
    if (queue == NULL) return -EINVAL;
    pthread_mutex_lock(&device->lock);
    int result = 0;
    size_t capacity = device->config.queue_capacity > 0 ? device->config.queue_capacity : (size_t)4 << 20;
    if (device->unplugged) {
        result = -ENODEV;
    } else if (*halt_flag(device, endpoint)) {
        result = -EPIPE;
    } else if (queue->bytes > 0 && queue->bytes + length > capacity) {
        result = -EAGAIN;
    } else {
        size_t packet = packet_size(device, endpoint);
        result = queue_append(queue, bytes, length, length == 0 || length % packet != 0);
        if (result == 0) pump_in(device, endpoint);
    }
    pthread_mutex_unlock(&device->lock);
    return result;
}

void fakeusb_halt(fakeusb_device *device, uint8_t endpoint) {
    int *flag = halt_flag(device, endpoint);
    if (flag == NULL) return;
    pthread_mutex_lock(&device->lock);
    *flag = 1;
    fu_urb_list *pending = pending_of(device, endpoint);
    while (pending->head != NULL) complete_urb(device, pending, pending->head, -EPIPE);
    changed(device);
    pthread_mutex_unlock(&device->lock);
    fire(device);
}

int fakeusb_is_halted(fakeusb_device *device, uint8_t endpoint) {
    int *flag = halt_flag(device, endpoint);
    if (flag == NULL) return 0;
    pthread_mutex_lock(&device->lock);
    int halted = *flag;
    pthread_mutex_unlock(&device->lock);
    return halted;
}

void fakeusb_discard(fakeusb_device *device, uint8_t endpoint) {
    pthread_mutex_lock(&device->lock);
    if (endpoint == EP_BULK_OUT) {
        queue_clear(&device->out_queue);
        // Host writes that were waiting for room are accepted and dropped, as a device flushing its FIFO does.
        while (device->pending_out.head != NULL) {
            fu_urb *urb = device->pending_out.head;
            urb->actual = (int)urb->out_length;
            complete_urb(device, &device->pending_out, urb, 0);
        }
    } else {
        fu_queue *queue = in_queue_of(device, endpoint);
        if (queue != NULL) queue_clear(queue);
    }
    changed(device);
    pthread_mutex_unlock(&device->lock);
    fire(device);
}

int fakeusb_next_control(fakeusb_device *device, fakeusb_control_request *request) {
    pthread_mutex_lock(&device->lock);
    drop_orphans(&device->pending_control);
    for (fu_urb *urb = device->pending_control.head; urb != NULL; urb = urb->next) {
        if (urb->control_id == 0 || urb->control_taken) continue;
        urb->control_taken = 1;
        const uint8_t *setup = urb->out;
        memset(request, 0, sizeof *request);
        request->id = urb->control_id;
        request->request_type = setup[0];
        request->request = setup[1];
        request->value = (uint16_t)(setup[2] | setup[3] << 8);
        request->index = (uint16_t)(setup[4] | setup[5] << 8);
        request->length = (uint16_t)(setup[6] | setup[7] << 8);
        if (!(setup[0] & 0x80)) {
            request->data_length = urb->out_length - 8;
            memcpy(request->data, urb->out + 8, request->data_length);
        }
        pthread_mutex_unlock(&device->lock);
        return 1;
    }
    pthread_mutex_unlock(&device->lock);
    return 0;
}

void fakeusb_answer_control(fakeusb_device *device, uint64_t id, int status, const uint8_t *data, size_t length) {
    pthread_mutex_lock(&device->lock);
    for (fu_urb *urb = device->pending_control.head; urb != NULL; urb = urb->next) {
        if (urb->control_id != id) continue;
        device->stats.class_requests += 1;
        finish_control(device, urb, status < 0 ? status : 0, data, length);
        break;
    }
    pthread_mutex_unlock(&device->lock);
}

void fakeusb_unplug(fakeusb_device *device) {
    pthread_mutex_lock(&device->lock);
    if (!device->unplugged) {
        device->unplugged = 1;
        // libusb only learns of the disconnect from URB statuses here (the node is a regular file, so poll() never
        // reports POLLERR): complete everything in flight with -ESHUTDOWN before ioctls start failing with ENODEV,
        // or the transfers would stay pending for ever.
        fu_urb_list *lists[] = {&device->pending_in, &device->pending_interrupt, &device->pending_out,
                                &device->pending_control};
        for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
            while (lists[i]->head != NULL) complete_urb(device, lists[i], lists[i]->head, -ESHUTDOWN);
        }
        queue_clear(&device->in_queue);
        queue_clear(&device->interrupt_queue);
        queue_clear(&device->out_queue);
        changed(device);
    }
    pthread_mutex_unlock(&device->lock);
    fire(device);
}

void fakeusb_device_remove(fakeusb_device *device) {
    fakeusb_unplug(device);
    pthread_mutex_lock(&testbed_lock);
    if (!device->removed) {
        device->removed = 1;
        if (api->testbed_remove_device != NULL) {
            char syspath[256];
            snprintf(syspath, sizeof syspath, "/sys/devices/pci0000:00/0000:00:14.0/usb%u/%u-%u",
                     device->config.busnum, device->config.busnum, device->config.port);
            api->testbed_remove_device(device->testbed->testbed, syspath);
        }
    }
    pthread_mutex_unlock(&testbed_lock);
}

void fakeusb_set_claim_error(fakeusb_device *device, int error_number) {
    pthread_mutex_lock(&device->lock);
    device->claim_error = error_number;
    pthread_mutex_unlock(&device->lock);
}

int fakeusb_set_node_mode(fakeusb_device *device, unsigned int mode) {
    return chmod(device->node_file, (mode_t)mode) == 0 ? 0 : -errno;
}

void fakeusb_get_stats(fakeusb_device *device, fakeusb_stats *stats) {
    pthread_mutex_lock(&device->lock);
    *stats = device->stats;
    pthread_mutex_unlock(&device->lock);
}

#else

// umockdev and usbdevfs are Linux-only: elsewhere the fake camera cannot exist, and says so.

#include <stdio.h>

int fakeusb_load(char *error, size_t error_length) {
    if (error != NULL && error_length > 0) snprintf(error, error_length, "the fake USB camera needs Linux (umockdev)");
    return -1;
}
int fakeusb_preload_active(void) { return 0; }
fakeusb_testbed *fakeusb_testbed_create(char *error, size_t error_length) {
    fakeusb_load(error, error_length);
    return NULL;
}
void fakeusb_testbed_destroy(fakeusb_testbed *testbed) { (void)testbed; }
const char *fakeusb_testbed_root(const fakeusb_testbed *testbed) { (void)testbed; return ""; }
fakeusb_device *fakeusb_device_add(
    fakeusb_testbed *testbed, const fakeusb_config *config, fakeusb_notify_fn notify, void *notify_context,
    char *error, size_t error_length) {
    (void)testbed; (void)config; (void)notify; (void)notify_context;
    fakeusb_load(error, error_length);
    return NULL;
}
const char *fakeusb_device_node(const fakeusb_device *device) { (void)device; return ""; }
uint64_t fakeusb_device_generation(fakeusb_device *device) { (void)device; return 0; }
long fakeusb_read_out(fakeusb_device *device, uint8_t *buffer, size_t max_length, int *ended) {
    (void)device; (void)buffer; (void)max_length; *ended = 0;
    return -19;  // ENODEV
}
int fakeusb_write_in(fakeusb_device *device, uint8_t endpoint, const uint8_t *bytes, size_t length) {
    (void)device; (void)endpoint; (void)bytes; (void)length;
    return -19;
}
void fakeusb_halt(fakeusb_device *device, uint8_t endpoint) { (void)device; (void)endpoint; }
int fakeusb_is_halted(fakeusb_device *device, uint8_t endpoint) { (void)device; (void)endpoint; return 0; }
void fakeusb_discard(fakeusb_device *device, uint8_t endpoint) { (void)device; (void)endpoint; }
int fakeusb_next_control(fakeusb_device *device, fakeusb_control_request *request) {
    (void)device; (void)request;
    return 0;
}
void fakeusb_answer_control(fakeusb_device *device, uint64_t id, int status, const uint8_t *data, size_t length) {
    (void)device; (void)id; (void)status; (void)data; (void)length;
}
void fakeusb_unplug(fakeusb_device *device) { (void)device; }
void fakeusb_device_remove(fakeusb_device *device) { (void)device; }
void fakeusb_set_claim_error(fakeusb_device *device, int error_number) { (void)device; (void)error_number; }
int fakeusb_set_node_mode(fakeusb_device *device, unsigned int mode) { (void)device; (void)mode; return -19; }
void fakeusb_get_stats(fakeusb_device *device, fakeusb_stats *stats) { (void)device; *stats = (fakeusb_stats){0}; }

#endif
