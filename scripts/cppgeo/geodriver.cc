// geodriver: writes geometry/geography ORC files with Apache ORC C++ and
// prints the geospatial statistics of any file (file, stripes, row groups).
//   geodriver write OUT VALUES.hex ROWS COMPRESSION(none|zlib|zstd|snappy|lz4) STRIPE_BYTES
//   geodriver stats FILE
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "orc/OrcFile.hh"
#include "orc/Geospatial.hh"

static std::vector<std::string> readValues(const char* path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line == "null") {
      out.push_back(std::string("\xff"));  // marker
      continue;
    }
    std::string b;
    for (size_t i = 0; i + 1 < line.size(); i += 2) {
      b.push_back(static_cast<char>(std::stoi(line.substr(i, 2), nullptr, 16)));
    }
    out.push_back(b);
  }
  return out;
}

static bool isNull(const std::string& s) { return s.size() == 1 && s[0] == '\xff'; }

static int write(int argc, char** argv) {
  std::string outPath = argv[2];
  std::vector<std::string> vals = readValues(argv[3]);
  uint64_t rows = std::stoull(argv[4]);
  std::string comp = argv[5];
  uint64_t stripe = std::stoull(argv[6]);
  // Built node by node: buildTypeFromString keeps two characters after a
  // geometry's CRS ("geometry(OGC:CRS84)," gives the CRS "OGC:CRS84),").
  auto type = orc::createStructType();
  type->addStructField("id", orc::createPrimitiveType(orc::LONG));
  type->addStructField("g", orc::createGeometryType("OGC:CRS84"));
  type->addStructField("g2", orc::createGeometryType("EPSG:4326"));
  type->addStructField("h", orc::createGeographyType("OGC:CRS84", orc::geospatial::SPHERICAL));
  type->addStructField("h2", orc::createGeographyType("OGC:CRS84", orc::geospatial::KARNEY));
  type->addStructField("l", orc::createListType(orc::createGeometryType("OGC:CRS84")));
  orc::WriterOptions opts;
  opts.setRowIndexStride(1000);
  opts.setStripeSize(stripe);
  if (comp == "none") opts.setCompression(orc::CompressionKind_NONE);
  else if (comp == "zlib") opts.setCompression(orc::CompressionKind_ZLIB);
  else if (comp == "zstd") opts.setCompression(orc::CompressionKind_ZSTD);
  else if (comp == "snappy") opts.setCompression(orc::CompressionKind_SNAPPY);
  else if (comp == "lz4") opts.setCompression(orc::CompressionKind_LZ4);
  auto out = orc::writeLocalFile(outPath);
  auto writer = orc::createWriter(*type, out.get(), opts);
  const uint64_t batchSize = 777;  // not a multiple of the stride
  auto batch = writer->createRowBatch(batchSize);
  auto* root = dynamic_cast<orc::StructVectorBatch*>(batch.get());
  auto* ids = dynamic_cast<orc::LongVectorBatch*>(root->fields[0]);
  auto* list = dynamic_cast<orc::ListVectorBatch*>(root->fields[5]);
  auto* elems = dynamic_cast<orc::StringVectorBatch*>(list->elements.get());
  std::vector<std::string> keep;  // owns the generated points
  for (uint64_t start = 0; start < rows; start += batchSize) {
    uint64_t n = std::min(batchSize, rows - start);
    keep.clear();
    keep.reserve(n);
    elems->resize(3 * n);
    uint64_t ne = 0;
    list->offsets[0] = 0;
    for (int c = 1; c <= 4; c++) root->fields[c]->hasNulls = false;
    for (uint64_t r = 0; r < n; r++) {
      uint64_t i = start + r;
      ids->data[r] = static_cast<int64_t>(i);
      const std::string* v = &vals[i % vals.size()];
      if (i % vals.size() == 0 && i > 0) {
        // a point walking over the world: little-endian POINT (x y)
        double xy[2] = {static_cast<double>(i % 360) - 180, static_cast<double>(i % 170) - 85};
        std::string p("\x01\x01\x00\x00\x00", 5);
        p.append(reinterpret_cast<const char*>(xy), 16);
        keep.push_back(p);
        v = &keep.back();
      }
      for (int c = 1; c <= 4; c++) {
        auto* col = dynamic_cast<orc::StringVectorBatch*>(root->fields[c]);
        if (isNull(*v)) {
          col->notNull[r] = 0;
          col->hasNulls = true;
          col->data[r] = nullptr;
          col->length[r] = 0;
        } else {
          col->notNull[r] = 1;
          col->data[r] = const_cast<char*>(v->data());
          col->length[r] = static_cast<int64_t>(v->size());
        }
      }
      for (uint64_t j = 0; j < i % 3; j++) {
        const std::string* w = &vals[(i + j + 1) % vals.size()];
        if (isNull(*w)) w = &vals[0];
        elems->notNull[ne] = 1;
        elems->data[ne] = const_cast<char*>(w->data());
        elems->length[ne] = static_cast<int64_t>(w->size());
        ne++;
      }
      list->offsets[r + 1] = static_cast<int64_t>(ne);
      list->notNull[r] = 1;
    }
    elems->numElements = ne;
    for (int c = 0; c <= 5; c++) root->fields[c]->numElements = n;
    root->numElements = n;
    writer->add(*batch);
  }
  writer->close();
  return 0;
}

static std::string num(double d) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

static void printStats(const std::string& unit, uint32_t col, const orc::ColumnStatistics* cs) {
  auto* g = dynamic_cast<const orc::GeospatialColumnStatistics*>(cs);
  std::cout << unit << " c" << col << ":";
  if (g == nullptr) {
    std::cout << " nogeo\n";
    return;
  }
  const auto& b = g->getBoundingBox();
  const char* names = "xyzm";
  for (int i = 0; i < 4; i++) {
    if (b.boundValid(i) && !b.boundEmpty(i)) {
      std::cout << " " << names[i] << "=[" << num(b.min[i]) << "," << num(b.max[i]) << "]";
    }
  }
  std::cout << " t=[";
  std::string sep;
  for (auto t : g->getGeospatialTypes()) {
    std::cout << sep << t;
    sep = ",";
  }
  std::cout << "]\n";
}

static int stats(char** argv) {
  orc::ReaderOptions ropts;
  auto reader = orc::createReader(orc::readLocalFile(argv[2]), ropts);
  const auto& type = reader->getType();
  std::vector<uint32_t> geoCols;
  for (uint64_t c = 0; c <= type.getMaximumColumnId(); c++) {
    const orc::Type* t = type.getTypeByColumnId(c);
    if (t->getKind() == orc::GEOMETRY || t->getKind() == orc::GEOGRAPHY) geoCols.push_back(c);
  }
  auto fs = reader->getStatistics();
  for (auto c : geoCols) printStats("file", c, fs->getColumnStatistics(c));
  for (uint64_t s = 0; s < reader->getNumberOfStripes(); s++) {
    auto ss = reader->getStripeStatistics(s);
    for (auto c : geoCols) {
      printStats("stripe " + std::to_string(s), c, ss->getColumnStatistics(c));
      for (uint32_t g = 0; g < ss->getNumberOfRowIndexStats(c); g++) {
        printStats("stripe " + std::to_string(s) + " group " + std::to_string(g), c,
                   ss->getRowIndexStatistics(c, g));
      }
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 7 && std::string(argv[1]) == "write") return write(argc, argv);
  if (argc == 3 && std::string(argv[1]) == "stats") return stats(argv);
  std::cerr << "usage: geodriver write OUT VALUES.hex ROWS COMPRESSION STRIPE | geodriver stats FILE\n";
  return 2;
}
