#ifndef LAYERCAST_CLIBCRYPTO_SHIM_H
#define LAYERCAST_CLIBCRYPTO_SHIM_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#endif
