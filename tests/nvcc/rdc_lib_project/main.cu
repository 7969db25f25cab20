// The same main as a CUDA file without relocatable device code.
#include "main.cpp"
