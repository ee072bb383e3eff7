#ifndef RAWCAP_CLIBUSB_SHIM_H
#define RAWCAP_CLIBUSB_SHIM_H

// libusb-1.0 for the PTPUSB target, its only importer; pkg-config libusb-1.0 adds -I/usr/include/libusb-1.0.
// libusb's own static inline helpers (libusb_fill_bulk_transfer, libusb_control_transfer_get_data, ...) import
// into Swift as they are, so nothing needs wrapping.
#include <libusb.h>

#endif
