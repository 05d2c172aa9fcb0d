// Stand-in (etmem tests): etmem measure must not compile tests.
#error "tests are not part of the runtime"
