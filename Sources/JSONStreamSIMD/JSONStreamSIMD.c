// The kernels are static inline functions in include/JSONStreamSIMD.h, inlined where they
// are used; a C target needs one source file of its own.
#include "JSONStreamSIMD.h"
