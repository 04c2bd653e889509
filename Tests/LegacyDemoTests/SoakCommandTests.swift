import Foundation
import Testing
